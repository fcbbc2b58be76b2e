/**
 * The cash desk (issue 21): the cashier's open session (GET /api/cash-sessions/current/, 404 when none), opening
 * one with a float per currency, closing it with the cash counted per currency (answered with its report), a session's report (expected vs
 * counted, variance; totals per method and operator) and the sessions list (the cashier's own, every one for the
 * management).
 */
import type {
  TCashSession,
  TCashSessionClose,
  TCashSessionOpen,
  TCashSessionReport,
} from '@greensen/shared/contracts/billing';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useBillingWrite, useHospital } from './invoices';

/** The cashier's open session, or null when none is open. */
export function useCurrentCashSession(enabled = true) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'cash-session', 'current'] as const,
    queryFn: async ({ signal }) => {
      try {
        return await api.get<TCashSession>('cash-sessions/current/', { signal });
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
    enabled,
  });
}

export function useCashSessionReport(id: string | null) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'cash-session', id, 'report'] as const,
    queryFn: ({ signal }) => api.get<TCashSessionReport>(`cash-sessions/${id}/report/`, { signal }),
    enabled: id !== null,
  });
}

export function useCashSessions(status: 'open' | 'closed' | null, page: number, pageSize: number) {
  const hospitalId = useHospital();
  const query = { status: status ?? undefined, page, page_size: pageSize };
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'cash-sessions', query] as const,
    queryFn: ({ signal }) => api.get<Page<TCashSession>>('cash-sessions/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export const useOpenCashSession = () =>
  useBillingWrite((body: TCashSessionOpen) => api.post<TCashSession>('cash-sessions/', body));

export const useCloseCashSession = () =>
  useBillingWrite(({ id, ...body }: TCashSessionClose & { id: string }) =>
    api.post<TCashSessionReport>(`cash-sessions/${id}/close/`, body),
  );
