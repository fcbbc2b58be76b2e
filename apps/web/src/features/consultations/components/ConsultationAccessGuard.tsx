/**
 * The `consultation-access` route guard (specification §2) of /consultations/{id} and
 * /consultations/diagnosis/{id}: it loads the record before the page. The server applies the rule
 * (docs/consultation-access.md):
 * - 403 → the specification's refusal: the red "Accès refusé" notice (API client) and back to /;
 * - 404, or an id that cannot exist → the error page with type consultation;
 * - other failures → the error state with a retry; otherwise the page, with the record in the cache.
 */
import { Skeleton, Stack } from '@mantine/core';
import { Navigate, Outlet, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useConsultation } from '../../../lib/clinical/api/get-consultation';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function notFoundPath(id: string): string {
  return `/error-404?${new URLSearchParams({ type: 'consultation', id }).toString()}`;
}

export default function ConsultationAccessGuard() {
  const { id = '' } = useParams();
  const to = useLocalizedPath();
  const valid = UUID_RE.test(id);
  const query = useConsultation(id, valid);

  if (!valid) return <Navigate to={to(notFoundPath(id))} replace />;
  if (query.isPending) {
    return (
      <Stack gap="md" data-testid="consultation-loading">
        <Skeleton h={40} w="45%" />
        <Skeleton h={90} />
        <Skeleton h={320} />
      </Stack>
    );
  }
  if (query.isError) {
    const status = isApiError(query.error) ? query.error.status : 0;
    if (status === 403) return <Navigate to={to('/')} replace />;
    if (status === 404) return <Navigate to={to(notFoundPath(id))} replace />;
    return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <Outlet />;
}
