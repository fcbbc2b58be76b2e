// SQL outside a repository: the invoice's money predicates (balance, open invoice), defined once.
/**
 * The money rules of an invoice, defined once (issue 41): in SQL for the queries that filter or count on them,
 * in TypeScript for the rows already read. An invoice's standing (issued, partially paid, settled) is
 * `invoiceStanding` of `@greensen/shared/domain/money`, fed by `liveBalanceOf` and `paid`.
 */
import { type SQL, sql } from 'drizzle-orm';

const num = (v: unknown) => Number(v ?? 0);

/** The columns the balance reads from an invoice row. */
type MoneyColumns = { patient_share: unknown; credited_patient_share: unknown; paid: unknown };

/** What the patient still owes on an invoice (negative: to refund). */
export const balanceOf = (r: MoneyColumns) =>
  num(r.patient_share) + num(r.credited_patient_share) - num(r.paid);

/** An invoice that counts (not a credit note, not cancelled): the one whose balance the patient owes. */
export const isLiveInvoice = (r: { kind: string; status: string }) =>
  r.kind === 'invoice' && r.status !== 'cancelled';

/** The balance of a live invoice; 0 for a credit note or a cancelled invoice. */
export const liveBalanceOf = (r: MoneyColumns & { kind: string; status: string }) =>
  isLiveInvoice(r) ? balanceOf(r) : 0;

/** Something was paid on the invoice (paid or partially paid): a draft with payments may not be cancelled. */
export const hasPayments = (r: { paid: unknown }) => num(r.paid) !== 0;

/** The columns of `alias` (`i.`), or the bare columns of the one table of the statement. */
const columnsOf = (alias?: string) => sql.raw(alias ? `${alias}.` : '');

/** `balanceOf` in SQL, on the invoice aliased `alias`. */
export function invoiceBalance(alias: string): SQL {
  const i = columnsOf(alias);
  return sql`${i}patient_share + ${i}credited_patient_share - ${i}paid`;
}

/** An issued invoice the patient still owes on (`alias`). */
export function openInvoice(alias: string): SQL {
  return sql`${columnsOf(alias)}status = 'issued' and ${invoiceBalance(alias)} > 0`;
}

/** `isLiveInvoice` in SQL, on the invoice aliased `alias` (or the statement's one table). */
export function liveInvoice(alias?: string): SQL {
  const i = columnsOf(alias);
  return sql`${i}kind = 'invoice' and ${i}status <> 'cancelled'`;
}
