/**
 * Guest-only routes (/login, /register, /forgot-password, /reset-password/*, /verify-email/*):
 * a signed-in user goes to / (or back to the page the login was asked for).
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLocalizedPath } from '../../lib/use-localized-path';
import { useAuthStore } from '../../stores/auth';

function safeReturnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/';
}

export function GuestGuard() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const location = useLocation();
  const to = useLocalizedPath();
  if (isAuthenticated) return <Navigate to={to(safeReturnPath(location.state))} replace />;
  return <Outlet />;
}
