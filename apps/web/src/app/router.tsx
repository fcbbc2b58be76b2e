import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { appRoutes } from './routes';

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes());
  setNavigator(
    (to, options) => router.navigate(to, options),
    () => router.state.location.pathname,
  );
  return router;
}
