/** GET /api/stats/{section}/ and the drill-down (issue 24, decision 0035). */
import type {
  TActivityStats,
  TBillingStats,
  TDiagnosisStats,
  TFlowStats,
  TInpatientStats,
  TLaboratoryStats,
  TPharmacyStats,
  TStatsDrilldownItem,
} from '@greensen/shared/contracts/stats';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';

export interface StatsFilters {
  from: string;
  to: string;
  department: string | null;
  /** `all`: every hospital where the user reads the figures (an administrator of several); null: this one. */
  hospitals: 'all' | null;
}

export interface SectionData {
  activity: TActivityStats;
  flow: TFlowStats;
  diagnoses: TDiagnosisStats;
  laboratory: TLaboratoryStats;
  pharmacy: TPharmacyStats;
  inpatient: TInpatientStats;
  billing: TBillingStats;
}
export type Section = keyof SectionData;
export const SECTIONS: readonly Section[] = [
  'activity',
  'flow',
  'diagnoses',
  'laboratory',
  'pharmacy',
  'inpatient',
  'billing',
];

export const STATS_KEY = ['stats'] as const;

const queryOf = (f: StatsFilters) => ({
  from: f.from,
  to: f.to,
  ...(f.department ? { department: f.department } : {}),
  ...(f.hospitals ? { hospitals: f.hospitals } : {}),
});

export function useStats<S extends Section>(section: S, filters: StatsFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...STATS_KEY, hospitalId, section, filters] as const,
    queryFn: ({ signal }) =>
      api.get<SectionData[S]>(`stats/${section}/`, { query: queryOf(filters), signal }),
    enabled: enabled && filters.from !== '' && filters.to !== '' && filters.from <= filters.to,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export interface DrilldownTarget {
  disease?: string;
  code?: string;
  age_group?: string;
  /** What the number is, for the dialog's title. */
  label: string;
}

export function useDrilldown(filters: StatsFilters, target: DrilldownTarget | null, page: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...STATS_KEY, hospitalId, 'drilldown', filters, target, page] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TStatsDrilldownItem>>('stats/drilldown/', {
        query: {
          ...queryOf({ ...filters, hospitals: null }),
          ...(target?.disease ? { disease: target.disease } : {}),
          ...(target?.code ? { code: target.code } : {}),
          ...(target?.age_group ? { age_group: target.age_group } : {}),
          page,
          page_size: 20,
        },
        signal,
      }),
    enabled: target !== null,
    placeholderData: keepPreviousData,
  });
}
