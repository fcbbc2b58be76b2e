import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type { Tx } from '../../db/client.js';
import type { ServiceContext } from '../../lib/context.js';
import { scopedHospital } from '../../lib/context.js';
import type { Notify } from '../notifications/notifications.service.js';
import { endCurrentAssignment, markBedCleaning } from './beds.repository.js';
import type { LockedStay } from './hospitalizations.repository.js';

/** A stay is open while it waits for a bed or lies in one (in SQL: `OPEN_STAY` of stay-orders.repository.ts). */
export const stayIsOpen = (status: string) =>
  (OPEN_HOSPITALIZATION_STATUSES as readonly string[]).includes(status);

/** The message of a notification, in both languages, with the patient and the place. */
type Texts = { fr: string; en: string };

/** Tells the staff of a stay (the caller aside) what happened to it: the stays', beds' and discharge's notices. */
export async function tellStaff(
  ctx: ServiceContext,
  notify: Notify,
  n: {
    recipients: string[];
    type: 'hospitalization' | 'bed_assignment' | 'transfer';
    title: Texts;
    message: Texts;
    data: Record<string, unknown>;
    hospitalId?: string;
  },
) {
  const me = ctx.user?.id ?? null;
  const recipients = n.recipients.filter((r) => r !== me);
  if (recipients.length === 0) return;
  await notify({
    hospitalId: n.hospitalId ?? scopedHospital(ctx).id,
    recipients,
    type: n.type,
    title: n.title,
    message: n.message,
    data: n.data,
    initiatedBy: me,
  });
}

/**
 * Ends the stay's current bed: the assignment closes, the bed goes to cleaning. The caller sets the stay's
 * new bed or state in the same statement as clearing `bed_id` (`hospitalizations_bed_state_ck`).
 */
export async function leaveBed(tx: Tx, stay: LockedStay, now: Date) {
  if (!stay.bed_id) return;
  await endCurrentAssignment(tx, stay.id, now);
  await markBedCleaning(tx, stay.bed_id, now);
}
