/**
 * Inpatient stays: the list (GET /api/hospitalizations/), a stay (GET /api/hospitalizations/{id}/: 404 → the
 * error page with type hospitalization, by the API client), admitting (POST), changing (PATCH) and the
 * discharge (POST /api/hospitalizations/{id}/discharge/).
 */
import type {
  HospitalizationStatus,
  TDischargeCreate,
  THospitalizationCreate,
  THospitalizationDetail,
  THospitalizationListItem,
  THospitalizationUpdate,
} from '@greensen/shared/contracts/hospitalizations';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';
import { HOSPITALIZATIONS_KEY, invalidateInpatients } from './keys';

export type StayStatusFilter = 'open' | 'closed' | 'all' | HospitalizationStatus;

export interface StayFilters {
  status: StayStatusFilter;
  ward?: string | null;
  department?: string | null;
  doctor?: string | null;
  patient?: string | null;
  search?: string;
  page: number;
  pageSize: number;
}

export function staysQueryOptions(hospitalId: string | null, filters: StayFilters) {
  return queryOptions({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<THospitalizationListItem>>('hospitalizations/', {
        query: {
          status: filters.status,
          ward: filters.ward,
          department: filters.department,
          doctor: filters.doctor,
          patient: filters.patient,
          search: filters.search?.trim() || undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useStays(filters: StayFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(staysQueryOptions(hospitalId, filters));
}

export function stayQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<THospitalizationDetail>(`hospitalizations/${id}/`, { signal }),
  });
}

export function useStay(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(stayQueryOptions(hospitalId, id));
}

/** A write on a stay: `send` makes the call; the stays, board, census and transfers are refreshed. */
function useStayWrite<Input>(send: (input: Input) => Promise<THospitalizationDetail>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => invalidateInpatients(queryClient) });
}

export const useAdmitPatient = () =>
  useStayWrite((body: THospitalizationCreate) => api.post<THospitalizationDetail>('hospitalizations/', body));

export const useUpdateStay = (id: string) =>
  useStayWrite((body: THospitalizationUpdate) =>
    api.patch<THospitalizationDetail>(`hospitalizations/${id}/`, body),
  );

export const useDischarge = (id: string) =>
  useStayWrite((body: TDischargeCreate) =>
    api.post<THospitalizationDetail>(`hospitalizations/${id}/discharge/`, body),
  );
