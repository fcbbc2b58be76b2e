/** GET /api/medical-acts/?search=: the active acts matching what is typed, to add a line to a draft invoice. */
import type { TMedicalAct } from '@greensen/shared/contracts/medical-acts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useHospital } from './invoices';

export function useActSearch(q: string, enabled: boolean) {
  const hospitalId = useHospital();
  const query = { search: q.trim() || undefined, active: 'true', page_size: 20 };
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'acts', query] as const,
    queryFn: ({ signal }) => api.get<Page<TMedicalAct>>('medical-acts/', { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
