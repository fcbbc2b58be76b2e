/**
 * Optional error reporting (off unless configured by `window.__GREENSEN_ERROR_REPORTING__` or the
 * `VITE_ERROR_REPORTING_URL` build variable). It keeps a short breadcrumb trail (navigations and network
 * calls) and posts uncaught errors with it. Its network recorder never records requests whose path begins
 * with /api/auth/, /api/token/ or /api/password/ (specification §1).
 */
import { isExcludedFromRecording } from '@greensen/shared/domain/constants';

export interface ErrorReportingConfig {
  /** Where reports are posted (same origin: the CSP allows only 'self'). */
  endpoint: string;
  /** Breadcrumbs kept, most recent last. */
  maxBreadcrumbs?: number;
  release?: string;
}

export interface Breadcrumb {
  type: 'navigation' | 'network' | 'console';
  message: string;
  at: number;
  data?: Record<string, unknown>;
}

declare global {
  interface Window {
    __GREENSEN_ERROR_REPORTING__?: ErrorReportingConfig;
  }
}

/** The configuration in effect, or null when reporting is off. */
export function resolveErrorReportingConfig(
  win: Pick<Window, '__GREENSEN_ERROR_REPORTING__'> | undefined = typeof window === 'undefined'
    ? undefined
    : window,
  envEndpoint: string | undefined = import.meta.env.VITE_ERROR_REPORTING_URL,
): ErrorReportingConfig | null {
  const fromWindow = win?.__GREENSEN_ERROR_REPORTING__;
  if (fromWindow?.endpoint) return fromWindow;
  if (envEndpoint) return { endpoint: envEndpoint };
  return null;
}

function pathOf(input: RequestInfo | URL): string {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    const url = new URL(raw, 'http://localhost');
    return url.pathname;
  } catch {
    return raw;
  }
}

export class ErrorRecorder {
  private readonly breadcrumbs: Breadcrumb[] = [];
  private readonly max: number;

  constructor(private readonly config: ErrorReportingConfig) {
    this.max = config.maxBreadcrumbs ?? 50;
  }

  add(crumb: Omit<Breadcrumb, 'at'>): void {
    this.breadcrumbs.push({ ...crumb, at: Date.now() });
    if (this.breadcrumbs.length > this.max) this.breadcrumbs.shift();
  }

  /** Records a network call unless its path is excluded. Query strings are never recorded. */
  recordRequest(method: string, input: RequestInfo | URL, status: number | null): boolean {
    const path = pathOf(input);
    if (isExcludedFromRecording(path)) return false;
    this.add({ type: 'network', message: `${method.toUpperCase()} ${path}`, data: { status } });
    return true;
  }

  recordNavigation(path: string): void {
    this.add({ type: 'navigation', message: path });
  }

  getBreadcrumbs(): readonly Breadcrumb[] {
    return this.breadcrumbs;
  }

  report(error: unknown, send: typeof fetch = fetch): void {
    const payload = {
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
      release: this.config.release ?? __BUILD_ID__,
      url: typeof location === 'undefined' ? '' : location.pathname,
      breadcrumbs: this.breadcrumbs,
    };
    void send(this.config.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
      keepalive: true,
    }).catch(() => undefined);
  }
}

/** Wraps fetch so every call (except the excluded auth paths) leaves a breadcrumb. */
export function instrumentFetch(recorder: ErrorRecorder, original: typeof fetch): typeof fetch {
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    try {
      const response = await original(input, init);
      recorder.recordRequest(method, input, response.status);
      return response;
    } catch (error) {
      recorder.recordRequest(method, input, null);
      throw error;
    }
  };
  return wrapped as typeof fetch;
}

let recorder: ErrorRecorder | null = null;

export function errorRecorder(): ErrorRecorder | null {
  return recorder;
}

/** Starts error reporting when configured; does nothing otherwise. */
export function initErrorReporting(): ErrorRecorder | null {
  const config = resolveErrorReportingConfig();
  if (!config || recorder) return recorder;
  recorder = new ErrorRecorder(config);
  const active = recorder;
  const originalFetch = window.fetch.bind(window);
  window.fetch = instrumentFetch(active, (input, init) => {
    // Reports themselves are not recorded.
    return originalFetch(input, init);
  });
  window.addEventListener('error', (event) => active.report(event.error ?? event.message, originalFetch));
  window.addEventListener('unhandledrejection', (event) => active.report(event.reason, originalFetch));
  return recorder;
}
