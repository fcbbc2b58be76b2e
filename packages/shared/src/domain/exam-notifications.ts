/**
 * The notification the requesting doctor receives when exam results are validated (issue 7): kept apart from
 * domain/exams.ts so that the notification stream of every signed-in page loads only this.
 */

/** `data.action` of the `consultation` notification sent when results are validated. */
export const EXAM_VALIDATED_ACTION = 'exam_validated';

/** Whether a notification reports validated exam results (the web then refreshes its exam lists). */
export function isExamValidatedNotification(n: {
  readonly notification_type: string;
  readonly data?: { readonly action?: string | null } | null;
}): boolean {
  return n.notification_type === 'consultation' && n.data?.action === EXAM_VALIDATED_ACTION;
}
