/**
 * GET /api/admin/audit/ (the viewer's pages) and GET /api/admin/audit/export/ (the same filters as a CSV file,
 * downloaded with the session's headers).
 */
import type { TAuditList } from '@greensen/shared/contracts/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiUrl } from '../../../lib/api-client';
import { uiLanguage } from '../../../lib/i18n';
import { useAuthStore } from '../../../stores/auth';

export interface AuditFilters {
  user?: string | null;
  patient?: string | null;
  resource?: string | null;
  action?: string | null;
  /** `YYYY-MM-DD`, the first day included. */
  from?: string | null;
  /** `YYYY-MM-DD`, the last day included. */
  to?: string | null;
}

/** The API's query: days become instants (the start of `from`, the start of the day after `to`). */
export function auditQuery(f: AuditFilters) {
  const dayAfter = (day: string) => {
    const d = new Date(`${day}T00:00:00`);
    d.setDate(d.getDate() + 1);
    return d.toISOString();
  };
  return {
    user: f.user || undefined,
    patient: f.patient || undefined,
    resource: f.resource || undefined,
    action: f.action?.trim() || undefined,
    from: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
    to: f.to ? dayAfter(f.to) : undefined,
  };
}

export function auditQueryOptions(
  hospitalId: string | null,
  filters: AuditFilters,
  page: number,
  pageSize: number,
) {
  return queryOptions({
    queryKey: ['admin', 'audit', hospitalId, filters, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<TAuditList>('admin/audit/', {
        query: { ...auditQuery(filters), page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(filters: AuditFilters, page: number, pageSize: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(auditQueryOptions(hospitalId, filters, page, pageSize));
}

/** Downloads the CSV export of the filters (a file the browser saves); throws on a refusal. */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const { access, currentHospitalId } = useAuthStore.getState();
  const headers: Record<string, string> = { 'Accept-Language': uiLanguage() };
  if (access) headers.Authorization = `Bearer ${access}`;
  if (currentHospitalId) headers['Hospital-ID'] = currentHospitalId;
  const response = await fetch(apiUrl('admin/audit/export/', auditQuery(filters)), { headers });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'audit.csv';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
