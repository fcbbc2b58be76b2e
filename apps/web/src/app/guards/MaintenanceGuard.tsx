/** Maintenance (spec §4): while the public flag is on, every route but /maintenance goes to /maintenance. */
import { Navigate, Outlet } from 'react-router';
import { useAppConfig } from '../../lib/app-config';
import { useLocalizedPath } from '../../lib/use-localized-path';

export function MaintenanceGuard() {
  const config = useAppConfig();
  const to = useLocalizedPath();
  if (config?.maintenance) return <Navigate to={to('/maintenance')} replace />;
  return <Outlet />;
}
