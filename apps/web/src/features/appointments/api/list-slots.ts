/** GET /api/appointments/slots/: the slots of a provider or a department over a date range (free ones by default). */
import type { TSlotList } from '@greensen/shared/contracts/appointments';
import type { AppointmentType } from '@greensen/shared/domain/appointments';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { SLOTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useAuthStore } from '../../../stores/auth';

export interface SlotParams {
  provider?: string | null;
  department?: string | null;
  /** `YYYY-MM-DD`, inclusive (hospital time). */
  from: string;
  to: string;
  type?: AppointmentType | null;
  /** false: full slots too (overbooking, the calendar's capacity). */
  freeOnly?: boolean;
  limit?: number;
}

export function fetchSlots(params: SlotParams, signal?: AbortSignal) {
  return api.get<TSlotList>('appointments/slots/', {
    query: {
      provider: params.provider || undefined,
      department: params.department || undefined,
      from: params.from,
      to: params.to,
      type: params.type || undefined,
      free_only: params.freeOnly === false ? false : undefined,
      limit: params.limit,
    },
    signal,
  });
}

export function slotsQueryOptions(hospitalId: string | null, params: SlotParams) {
  return queryOptions({
    queryKey: [...SLOTS_KEY, hospitalId, params] as const,
    queryFn: ({ signal }) => fetchSlots(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** Slots are asked for a provider or a department, never the whole hospital. */
export function slotsAskable(params: SlotParams): boolean {
  return Boolean(params.provider || params.department);
}

export function useSlots(params: SlotParams, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...slotsQueryOptions(hospitalId, params), enabled: enabled && slotsAskable(params) });
}
