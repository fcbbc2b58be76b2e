/**
 * The first start of a real installation (issue 15, docs/decisions/0021-installation-setup-and-modules.md): the
 * one-time setup link creates the first hospital and its first administrator. The server adds the token and the
 * password (checked against its list of common passwords) to these fields.
 */
import { z } from 'zod';
import { zDateTime } from './common.js';
import { ZStaffInvite } from './staff.js';
import { ZHospitalCreate } from './structure.js';

export const ZSetupFields = z.object({
  ...ZHospitalCreate.pick({ name: true, code: true, time_zone: true, currency: true, triage_scale: true })
    .shape,
  ...ZStaffInvite.pick({ email: true, first_name: true, last_name: true }).shape,
  /** The administrator's language (mails, profile); the request's language when absent. */
  language_preference: z.enum(['fr', 'en']).optional(),
});
export type TSetupFields = z.input<typeof ZSetupFields>;

/** A link that still works: when it expires. */
export const ZSetupState = z.object({ expires_at: zDateTime });
export type TSetupState = z.infer<typeof ZSetupState>;
