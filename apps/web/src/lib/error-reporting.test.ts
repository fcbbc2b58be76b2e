import { describe, expect, it, vi } from 'vitest';
import { ErrorRecorder, instrumentFetch, resolveErrorReportingConfig } from './error-reporting';

describe('error reporting', () => {
  it('is off unless configured', () => {
    expect(resolveErrorReportingConfig({}, undefined)).toBeNull();
    expect(
      resolveErrorReportingConfig({ __GREENSEN_ERROR_REPORTING__: { endpoint: '/r' } }, undefined),
    ).toEqual({
      endpoint: '/r',
    });
    expect(resolveErrorReportingConfig({}, '/env')).toEqual({ endpoint: '/env' });
  });

  it('never records requests to /api/auth/, /api/token/ or /api/password/', async () => {
    const recorder = new ErrorRecorder({ endpoint: '/report' });
    const original = vi.fn(async () => new Response('{}', { status: 200 }));
    const wrapped = instrumentFetch(recorder, original as unknown as typeof fetch);
    await wrapped('/api/auth/forgot-password/', { method: 'POST' });
    await wrapped('http://localhost/api/token/refresh/', { method: 'POST' });
    await wrapped('/api/password/change/', { method: 'POST' });
    await wrapped('/api/patients/?search=dupont', { method: 'GET' });
    await wrapped('/api/login/', { method: 'POST' });
    expect(original).toHaveBeenCalledTimes(5);
    expect(recorder.getBreadcrumbs().map((crumb) => crumb.message)).toEqual([
      'GET /api/patients/',
      'POST /api/login/',
    ]);
  });

  it('reports an error with the breadcrumbs', () => {
    const recorder = new ErrorRecorder({ endpoint: '/report', release: 'r1' });
    recorder.recordNavigation('/patients');
    const send = vi.fn(async () => new Response(null));
    recorder.report(new Error('boom'), send as unknown as typeof fetch);
    const [url, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/report');
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({ message: 'boom', release: 'r1', breadcrumbs: [{ message: '/patients' }] });
  });
});
