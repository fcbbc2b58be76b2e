/**
 * The bed board and the census (GET /api/hospitalizations/board/ and /census/), putting a patient in a bed
 * (POST /api/hospitalizations/{id}/bed/: a pending stay gets its first bed, an admitted patient moves; asked first
 * through GET /api/hospitalizations/{id}/bed-check/, the placement's guardrails) and the
 * housekeeping of freed beds (POST /api/hospitalizations/beds/{bed_id}/status/).
 * The board and census paths look like a stay's (`/hospitalizations/board/`): their 404 never leads to the
 * error page of a stay.
 */
import type {
  TBedAssign,
  TBedBoard,
  TBedCheck,
  TBoardBed,
  TCensus,
  THospitalizationDetail,
} from '@greensen/shared/contracts/hospitalizations';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';
import { HOSPITALIZATIONS_KEY, invalidateInpatients } from './keys';

export interface BoardFilters {
  ward?: string | null;
  department?: string | null;
}

export function bedBoardQueryOptions(hospitalId: string | null, filters: BoardFilters) {
  return queryOptions({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'board', filters] as const,
    queryFn: ({ signal }) =>
      api.get<TBedBoard>('hospitalizations/board/', {
        query: { ward: filters.ward, department: filters.department },
        notFoundRedirect: false,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useBedBoard(filters: BoardFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...bedBoardQueryOptions(hospitalId, filters), enabled });
}

export function censusQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'census'] as const,
    queryFn: ({ signal }) =>
      api.get<TCensus>('hospitalizations/census/', { notFoundRedirect: false, signal }),
  });
}

export function useCensus() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(censusQueryOptions(hospitalId));
}

/**
 * What placing the stay's patient in `bed` would break, as the server decides it (issue 37): the confirmation
 * of a placement shows it before anything is written. `bed` null: not asked.
 */
export function useBedCheck(stay: string, bed: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'bed-check', stay, bed] as const,
    queryFn: ({ signal }) =>
      api.get<TBedCheck>(`hospitalizations/${stay}/bed-check/`, {
        query: { bed: bed ?? '' },
        notFoundRedirect: false,
        signal,
      }),
    enabled: bed !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * Puts the stay's patient in `bed` (201); 409 when the bed was taken meanwhile or a guardrail is broken (a charge
 * nurse's `override_reason` then places anyway).
 */
export function useAssignBed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ stay, ...body }: { stay: string } & TBedAssign) =>
      api.post<THospitalizationDetail>(`hospitalizations/${stay}/bed/`, body),
    // Refetched after a refusal too: the board shows who took the bed.
    onSettled: () => invalidateInpatients(queryClient),
  });
}

/** A freed bed goes to cleaning, then back to free. */
export function useBedHousekeeping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bed, status }: { bed: string; status: 'free' | 'cleaning' }) =>
      api.post<TBoardBed>(`hospitalizations/beds/${bed}/status/`, { status }),
    onSettled: () => invalidateInpatients(queryClient),
  });
}
