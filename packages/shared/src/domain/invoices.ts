/**
 * An invoice's statuses (issue 21), a plain value apart from the billing schemas (contracts/billing.ts re-exports
 * it): the invoice list filters by them without loading and building every schema (issue 38).
 */
export const INVOICE_STATUSES = ['draft', 'issued', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
