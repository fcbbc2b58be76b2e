/**
 * Invoices (issue 21): the list (GET /api/invoices/: patient, status, kind, dates, number; server-paginated), an
 * invoice with its lines, payments and credit notes (GET /api/invoices/{id}/), and the billing staff's writes —
 * assemble a visit's draft, add or remove a line (with a reason), a discount (with a reason), issue, cancel a
 * draft, a credit note. Every write refreshes every billing query (lists, balances, the cash desk).
 */
import type {
  InvoiceKind,
  InvoiceStatus,
  TCreditNoteCreate,
  TInvoice,
  TInvoiceAssemble,
  TInvoiceAssembly,
  TInvoiceDetail,
  TInvoiceLineCreate,
  TUnpriced,
} from '@greensen/shared/contracts/billing';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';

export function useHospital() {
  return useAuthStore((state) => state.currentHospitalId);
}

export interface InvoiceFilters {
  number?: string;
  patient?: string | null;
  status?: InvoiceStatus | null;
  kind?: InvoiceKind | null;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** The invoice list's query options (the billing page's first screen is started from them: issue 38). */
export function invoicesQueryOptions(hospitalId: string | null, filters: InvoiceFilters) {
  const query = {
    number: filters.number?.trim() || undefined,
    patient: filters.patient || undefined,
    status: filters.status ?? undefined,
    kind: filters.kind ?? undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    page: filters.page,
    page_size: filters.pageSize,
  };
  return queryOptions({
    queryKey: [...BILLING_KEY, hospitalId, 'invoices', query] as const,
    queryFn: ({ signal }) => api.get<Page<TInvoice>>('invoices/', { query, signal }),
  });
}

export function useInvoices(filters: InvoiceFilters, enabled = true) {
  const hospitalId = useHospital();
  return useQuery({
    ...invoicesQueryOptions(hospitalId, filters),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useInvoice(id: string, enabled = true) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'invoice', id] as const,
    queryFn: ({ signal }) => api.get<TInvoiceDetail>(`invoices/${id}/`, { signal }),
    enabled,
  });
}

/** A billing write: refreshes every billing query, also after a refusal (a 409 means the state moved). */
export function useBillingWrite<Input, Output>(send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: BILLING_KEY }),
  });
}

/** The draft's summary (decision 0049): its header, line counts and unpriced acts; the invoice page reads its lines. */
export const useAssembleInvoice = () =>
  useBillingWrite((body: TInvoiceAssemble) => api.post<TInvoiceAssembly>('invoices/assemble/', body));

export const useAddLine = (id: string) =>
  useBillingWrite((body: TInvoiceLineCreate) => api.post<TInvoiceDetail>(`invoices/${id}/lines/`, body));

export const useRemoveLine = (id: string) =>
  useBillingWrite(({ line, reason }: { line: string; reason: string }) =>
    api.post<TInvoiceDetail>(`invoices/${id}/lines/${line}/remove/`, { reason }),
  );

export const useDiscountLine = (id: string) =>
  useBillingWrite(({ line, amount, reason }: { line: string; amount: number; reason: string }) =>
    api.post<TInvoiceDetail>(`invoices/${id}/lines/${line}/discount/`, { amount, reason }),
  );

export const useIssueInvoice = (id: string) =>
  useBillingWrite(() => api.post<TInvoiceDetail>(`invoices/${id}/issue/`, {}));

export const useCancelInvoice = (id: string) =>
  useBillingWrite((reason: string) => api.post<TInvoiceDetail>(`invoices/${id}/cancel/`, { reason }));

export const useCreditNote = (id: string) =>
  useBillingWrite((body: TCreditNoteCreate) => api.post<TInvoiceDetail>(`invoices/${id}/credit-note/`, body));

/** The navigation state the assembly leaves for the invoice's page: what it could not price. */
export interface AssembledState {
  assembled: { id: string; unpriced: TUnpriced[] };
}

/**
 * What the invoice's page lists as not billed: its own read's (acts with no tariff), and the assembly's that the
 * read cannot find again (a medicine with no act in the catalogue), when the page was opened by that assembly.
 */
export function unpricedOf(invoice: TInvoiceDetail, state: unknown): TUnpriced[] {
  const assembled = (state as Partial<AssembledState> | null)?.assembled;
  if (!assembled || assembled.id !== invoice.id || invoice.status !== 'draft') return invoice.unpriced;
  const known = new Set(invoice.unpriced.map((u) => u.label));
  return [
    ...invoice.unpriced,
    ...assembled.unpriced.filter((u) => u.performed_act === null && !known.has(u.label)),
  ];
}
