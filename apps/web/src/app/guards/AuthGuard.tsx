/**
 * Authenticated routes: an unauthenticated user goes to /login (the page asked for is kept in the
 * navigation state); a locked session can only reach /pin-verify.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { stripLanguagePrefix } from '../../lib/language';
import { useLocalizedPath } from '../../lib/use-localized-path';
import { useAuthStore } from '../../stores/auth';
import { useLockStore } from '../../stores/lock';

export function AuthGuard() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const locked = useLockStore((state) => state.locked);
  const location = useLocation();
  const to = useLocalizedPath();
  const bare = stripLanguagePrefix(location.pathname);

  if (!isAuthenticated) {
    return <Navigate to={to('/login')} replace state={{ from: `${bare}${location.search}` }} />;
  }
  if (locked && bare !== '/pin-verify') return <Navigate to={to('/pin-verify')} replace />;
  return <Outlet />;
}
