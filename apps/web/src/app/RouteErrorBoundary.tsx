/** Fatal route errors (unknown path, render errors) shown by the error page (specification §2, §8). */
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorView } from '../features/errors/components/ErrorView';
import { isChunkLoadError, reloadOnceForChunkError } from '../lib/chunk-reload';

/** Raised when no route matches: status 404 and 'Page Not Found <path>'. */
export class RouteNotFoundError extends Error {
  readonly status = 404;
  constructor(path: string) {
    super(`Page Not Found ${path}`);
    this.name = 'RouteNotFoundError';
  }
}

/** The catch-all route: route validation failure. */
export function NotFoundRoute(): never {
  const location = useLocation();
  throw new RouteNotFoundError(location.pathname);
}

export function describeRouteError(error: unknown): { status: number; message: string } {
  if (error instanceof RouteNotFoundError) return { status: 404, message: error.message };
  if (isRouteErrorResponse(error)) {
    const message = typeof error.data === 'string' ? error.data : error.statusText;
    return { status: error.status, message };
  }
  if (error instanceof Error) return { status: 500, message: error.message };
  return { status: 500, message: String(error) };
}

export function RouteErrorBoundary({ inShell = false }: { inShell?: boolean }) {
  const error = useRouteError();
  const location = useLocation();
  if (isChunkLoadError(error) && reloadOnceForChunkError()) return null;
  const { status, message } = describeRouteError(error);
  if (status === 404 && !(error instanceof RouteNotFoundError) && !message) {
    return <ErrorView status={404} message={`Page Not Found ${location.pathname}`} fullPage={!inShell} />;
  }
  return <ErrorView status={status} message={message} fullPage={!inShell} />;
}
