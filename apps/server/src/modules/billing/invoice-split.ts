/**
 * The payer split of an invoice's lines (issue 21, decision 0027): who pays what of each live line, and the
 * invoice's totals. The rule is here; its reads and writes are in invoice-lines.repository.ts.
 */
import { splitShare } from '@greensen/shared/domain/money';
import type { Tx } from '../../db/client.js';
import type { InvoiceHeaderRow } from './billing.repository.js';
import { type SplitRow, splitRowsOfInvoice, writeInvoiceSplit } from './invoice-lines.repository.js';

/**
 * The payer split of an invoice's lines in position order (domain/money.ts `splitShare`: the payer's rate of each
 * live line rounded down, capped by what is left of the category's ceiling on this invoice). Answers each line's
 * payer share (0 for a removed line), the invoice's totals and its count of live lines.
 */
export function splitLines(rows: SplitRow[]) {
  const used = new Map<string, number>();
  const shares: number[] = [];
  let total = 0;
  let payerTotal = 0;
  let lineCount = 0;
  for (const line of rows) {
    const lineTotal = Number(line.total);
    let payer = 0;
    if (!line.removed) {
      if (line.rate_percent !== null) {
        const ceiling = line.ceiling === null ? null : Number(line.ceiling);
        const left = ceiling === null ? null : ceiling - (used.get(line.category) ?? 0);
        payer = splitShare(lineTotal, Number(line.rate_percent), left).payer;
        used.set(line.category, (used.get(line.category) ?? 0) + payer);
      }
      total += lineTotal;
      payerTotal += payer;
      lineCount += 1;
    }
    shares.push(payer);
  }
  return { shares, total, payerTotal, lineCount };
}

/**
 * Writes a split: the shares of the lines (`rows`, the split's first lines) that changed and the invoice's
 * totals, in one statement that answers the invoice's header.
 */
export function writeSplit(
  tx: Tx,
  invoiceId: string,
  rows: SplitRow[],
  split: ReturnType<typeof splitLines>,
): Promise<InvoiceHeaderRow> {
  const changes = rows
    .map((r, i) => ({
      id: r.id,
      total: Number(r.total),
      payer: split.shares[i]!,
      was: Number(r.payer_share),
    }))
    .filter((c) => c.payer !== c.was)
    .map((c) => ({ id: c.id, payer: c.payer, patient: c.total - c.payer }));
  return writeInvoiceSplit(tx, invoiceId, changes, split);
}

/**
 * Splits every live line between the payer and the patient (`splitLines`) and writes the invoice's totals:
 * after an edit of a draft (a line added, removed or discounted).
 */
export async function recompute(tx: Tx, invoiceId: string, payerId: string | null) {
  const rows = await splitRowsOfInvoice(tx, invoiceId, payerId);
  await writeSplit(tx, invoiceId, rows, splitLines(rows));
}
