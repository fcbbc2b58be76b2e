/** Create (POST /api/payers/) and change (PATCH /api/payers/{id}/: rules replace the whole list) a payer. */
import type { TPayer, TPayerCreate, TPayerUpdate } from '@greensen/shared/contracts/billing';
import { api } from '../../../lib/api-client';
import { useBillingWrite } from './invoices';

export const useCreatePayer = () =>
  useBillingWrite((body: TPayerCreate) => api.post<TPayer>('payers/', body));

export const useUpdatePayer = () =>
  useBillingWrite(({ id, body }: { id: string; body: TPayerUpdate }) =>
    api.patch<TPayer>(`payers/${id}/`, body),
  );
