/** GET /api/triage/: the live waiting room (not yet triaged, then level and arrival) and the hospital's scale. */
import type { TPatientRef } from '@greensen/shared/contracts/admissions';
import type { TriageScale } from '@greensen/shared/domain/triage';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { TRIAGE_KEY } from './journey-keys';
import type { Page } from './list-admissions';

export interface WaitingRoomEntry {
  admission_id: string;
  patient: TPatientRef;
  department: { id: string; code: string; name: string; kind: string };
  status: 'waiting' | 'assigned';
  queue_number: number;
  admitted_at: string;
  /** Why the patient came (admission): the triage form starts from it. */
  reason: string;
  triage: {
    id: string;
    level: string;
    rank: number;
    target_minutes: number | null;
    chief_complaint: string;
  } | null;
  doctor: { id: string; full_name: string } | null;
  waited_minutes: number;
  target_exceeded: boolean;
}

export type WaitingRoom = Page<WaitingRoomEntry> & { scale: TriageScale };

/** The waiting room refreshes itself every 30 s. */
export const WAITING_ROOM_REFRESH_MS = 30_000;

export function waitingRoomQueryOptions(
  hospitalId: string | null,
  params: { department?: string | null; page: number; pageSize: number },
) {
  return queryOptions({
    queryKey: [...TRIAGE_KEY, hospitalId, 'waiting-room', params] as const,
    queryFn: ({ signal }) =>
      api.get<WaitingRoom>('triage/', {
        query: { department: params.department, page: params.page, page_size: params.pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useWaitingRoom(params: { department?: string | null; page: number; pageSize: number }) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...waitingRoomQueryOptions(hospitalId, params),
    refetchInterval: WAITING_ROOM_REFRESH_MS,
  });
}

/** The hospital's triage scale (carried by the waiting room answer). */
export function useHospitalScale(): TriageScale | undefined {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const query = useQuery({
    ...waitingRoomQueryOptions(hospitalId, { page: 1, pageSize: 1 }),
    staleTime: 5 * 60_000,
  });
  return query.data?.scale;
}
