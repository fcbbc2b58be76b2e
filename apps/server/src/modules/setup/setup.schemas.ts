import { ZSetupFields } from '@greensen/shared/contracts/setup';
import { z } from 'zod';
import { ZNewPassword } from '../auth/password-policy.js';

/**
 * The setup form: the shared fields, the link's token and the administrator's password (the password policy). A
 * field it does not know is refused (400), not silently dropped.
 */
export const ZSetupBody = ZSetupFields.extend({
  token: z.string().min(1).max(512),
  password: ZNewPassword,
}).strict();
export type TSetupBody = z.infer<typeof ZSetupBody>;
