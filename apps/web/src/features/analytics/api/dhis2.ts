/** The DHIS2 mapping (GET/PUT /api/stats/dhis2/mapping/) and the data value set export (decision 0039). */
import type {
  TDhis2DataValueSet,
  TDhis2Mapping,
  TDhis2MappingUpdate,
} from '@greensen/shared/contracts/dhis2';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';
import { STATS_KEY } from './stats';

const MAPPING_KEY = [...STATS_KEY, 'dhis2', 'mapping'] as const;

export function useDhis2Mapping(enabled: boolean) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...MAPPING_KEY, hospitalId] as const,
    queryFn: ({ signal }) => api.get<TDhis2Mapping>('stats/dhis2/mapping/', { signal }),
    enabled,
  });
}

export function useSaveDhis2Mapping() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TDhis2MappingUpdate) => api.put<TDhis2Mapping>('stats/dhis2/mapping/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: MAPPING_KEY }),
  });
}

/** The data value set of a DHIS2 period (`yyyyMM` or `yyyyWn`). */
export function fetchDataValueSet(period: string) {
  return api.get<TDhis2DataValueSet>('stats/dhis2/dataValueSet/', { query: { period } });
}
