/**
 * Payments and receipts (issue 21): record a payment on an issued invoice (POST /api/payments/: needs the cashier's
 * open cash session; a mobile-money reference already recorded is a 409), refund part of one (POST
 * /api/payments/{id}/refund/) — both answer the movement's numbered receipt — and a receipt (GET
 * /api/receipts/{id}/) for printing.
 */
import type { TPaymentCreate, TReceipt } from '@greensen/shared/contracts/billing';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import { useBillingWrite, useHospital } from './invoices';

export const useRecordPayment = () =>
  useBillingWrite((body: TPaymentCreate) => api.post<TReceipt>('payments/', body));

export const useRefundPayment = () =>
  useBillingWrite(({ payment, amount, reason }: { payment: string; amount: number; reason: string }) =>
    api.post<TReceipt>(`payments/${payment}/refund/`, { amount, reason }),
  );

export function useReceipt(id: string, enabled = true) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'receipt', id] as const,
    queryFn: ({ signal }) => api.get<TReceipt>(`receipts/${id}/`, { signal }),
    enabled,
  });
}
