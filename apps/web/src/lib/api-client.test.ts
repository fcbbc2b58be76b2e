import { describe, expect, it, vi } from 'vitest';
import { type ApiClientDeps, ApiError, apiUrl, createApiClient } from './api-client';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(handler: Handler, overrides: Partial<ApiClientDeps> = {}) {
  const calls: { url: string; init: RequestInit; headers: Headers }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const requestInit = init ?? {};
    calls.push({ url, init: requestInit, headers: new Headers(requestInit.headers) });
    return handler(url, requestInit);
  });
  const state = { access: 'old-access' as string | null, refresh: 'refresh-1' as string | null };
  const deps: ApiClientDeps = {
    fetch: () => fetchMock as unknown as typeof fetch,
    sleep: vi.fn(async () => undefined),
    getAccessToken: () => state.access,
    getRefreshToken: () => state.refresh,
    getHospitalId: () => 'hospital-1',
    getLanguage: () => 'fr',
    refreshTokens: vi.fn(async () => {
      state.access = 'new-access';
      return 'new-access';
    }),
    onSessionExpired: vi.fn(),
    onForbidden: vi.fn(),
    onNotFound: vi.fn(),
    onMissingOnWrite: vi.fn(),
    retry: true,
    ...overrides,
  };
  return { client: createApiClient(deps), deps, calls, fetchMock, state };
}

describe('api client', () => {
  it('builds /api/ URLs with query parameters', () => {
    expect(apiUrl('patients/')).toBe('/api/patients/');
    expect(apiUrl('/api/patients/')).toBe('/api/patients/');
    expect(apiUrl('notifications/', { page: 2, status: 'all', empty: '' })).toBe(
      '/api/notifications/?page=2&status=all',
    );
  });

  it('sends Authorization, Hospital-ID and Accept-Language', async () => {
    const { client, calls } = setup(() => json(200, { ok: true }));
    await expect(client.get('patients/')).resolves.toEqual({ ok: true });
    expect(calls[0]?.url).toBe('/api/patients/');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer old-access');
    expect(calls[0]?.headers.get('Hospital-ID')).toBe('hospital-1');
    expect(calls[0]?.headers.get('Accept-Language')).toBe('fr');
  });

  it('sends a FormData body as is (multipart, no JSON type) and reads a file as a Blob', async () => {
    const { client, calls } = setup(() => new Response(new Uint8Array([37, 80, 68, 70]), { status: 200 }));
    const form = new FormData();
    form.append('description', 'scan');
    const blob = await client.post<Blob>('documents/', form, { blob: true });
    expect(calls[0]?.init.body).toBe(form);
    expect(calls[0]?.headers.get('Content-Type')).toBeNull();
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer old-access');
    expect(blob.size).toBe(4);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it('public calls carry no bearer token nor Hospital-ID', async () => {
    const { client, calls } = setup(() => json(200, {}));
    await client.post('login/', { email: 'a@b.c', password: 'x' }, { public: true });
    expect(calls[0]?.headers.get('Authorization')).toBeNull();
    expect(calls[0]?.headers.get('Hospital-ID')).toBeNull();
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.init.body).toBe(JSON.stringify({ email: 'a@b.c', password: 'x' }));
  });

  it.each([408, 409, 425, 429, 500, 502, 503, 504])(
    'retries a GET on %i, at most 3 attempts',
    async (status) => {
      const { client, fetchMock, deps } = setup(() => json(status, { detail: 'x' }));
      const error = await client.get('stats/').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(deps.sleep).toHaveBeenNthCalledWith(1, 300);
      expect(deps.sleep).toHaveBeenNthCalledWith(2, 600);
    },
  );

  it('succeeds when a retry succeeds', async () => {
    let count = 0;
    const { client, fetchMock } = setup(() => (++count < 3 ? json(503, {}) : json(200, { ok: 1 })));
    await expect(client.get('stats/')).resolves.toEqual({ ok: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('does not retry a GET on other statuses', async () => {
    const { client, fetchMock } = setup(() => json(400, { name: ['bad'] }));
    await expect(client.get('stats/')).rejects.toMatchObject({ status: 400, body: { name: ['bad'] } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('never retries %s', async (method) => {
    const { client, fetchMock } = setup(() => json(503, {}));
    await expect(client.request(method, 'admissions/')).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('the second client does not retry', async () => {
    const { client, fetchMock } = setup(() => json(503, {}), { retry: false });
    await expect(client.get('stats/')).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('401 refreshes the token and retries with the new one', async () => {
    const { client, calls, deps } = setup((_url, init) =>
      new Headers(init.headers).get('Authorization') === 'Bearer new-access'
        ? json(200, { ok: true })
        : json(401, {}),
    );
    await expect(client.get('profile/')).resolves.toEqual({ ok: true });
    expect(deps.refreshTokens).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.headers.get('Authorization'))).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(deps.onSessionExpired).not.toHaveBeenCalled();
  });

  it('runs one refresh at a time; concurrent requests wait for it and retry once', async () => {
    let release: (value: string) => void = () => undefined;
    const state = { access: 'old-access' as string | null };
    const refreshTokens = vi.fn(
      () =>
        new Promise<string>((resolve) => {
          release = (value) => {
            state.access = value;
            resolve(value);
          };
        }),
    );
    const { client, fetchMock } = setup(
      (_url, init) =>
        new Headers(init.headers).get('Authorization') === 'Bearer new-access'
          ? json(200, { ok: true })
          : json(401, {}),
      { refreshTokens, getAccessToken: () => state.access },
    );
    const requests = [client.get('a/'), client.get('b/'), client.post('c/', {})];
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    await vi.waitFor(() => expect(refreshTokens).toHaveBeenCalled());
    // Every request is now waiting on the one refresh.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    release('new-access');
    await expect(Promise.all(requests)).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(6);
  });

  it('a failed refresh expires the session', async () => {
    const { client, deps } = setup(() => json(401, { detail: 'expired', code: 'token_not_valid' }), {
      refreshTokens: vi.fn(async () => null),
    });
    await expect(client.get('profile/')).rejects.toMatchObject({ status: 401 });
    expect(deps.onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('no refresh token expires the session without trying to refresh', async () => {
    const { client, deps } = setup(() => json(401, {}), { getRefreshToken: () => null });
    await expect(client.get('profile/')).rejects.toMatchObject({ status: 401 });
    expect(deps.refreshTokens).not.toHaveBeenCalled();
    expect(deps.onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('a public call answered 401 is just thrown (wrong credentials)', async () => {
    const { client, deps } = setup(() => json(401, { detail: 'Bad' }));
    await expect(client.post('login/', {}, { public: true })).rejects.toMatchObject({ status: 401 });
    expect(deps.refreshTokens).not.toHaveBeenCalled();
    expect(deps.onSessionExpired).not.toHaveBeenCalled();
  });

  it('403 shows the access-denied notice (then /) and rethrows', async () => {
    const { client, deps } = setup(() => json(403, { detail: 'no' }));
    await expect(client.post('admissions/', {})).rejects.toMatchObject({ status: 403, detail: 'no' });
    expect(deps.onForbidden).toHaveBeenCalledTimes(1);
  });

  it('a silent call handles its own refusals: no notice, no redirect, the error is thrown', async () => {
    for (const [status, method] of [
      [403, 'get'],
      [404, 'get'],
      [403, 'post'],
      [404, 'post'],
    ] as const) {
      const { client, deps } = setup(() => json(status, { detail: 'x' }));
      const call =
        method === 'get'
          ? client.get('notifications/', { silent: true })
          : client.post('notifications/mark-read/', {}, { silent: true });
      await expect(call).rejects.toMatchObject({ status });
      expect(deps.onForbidden).not.toHaveBeenCalled();
      expect(deps.onNotFound).not.toHaveBeenCalled();
      expect(deps.onMissingOnWrite).not.toHaveBeenCalled();
    }
  });

  it('404 on a GET of a known resource goes to the error page', async () => {
    const { client, deps } = setup(() => json(404, { detail: 'Not found' }));
    await expect(client.get('patients/42/')).rejects.toMatchObject({ status: 404 });
    expect(deps.onNotFound).toHaveBeenCalledWith({
      resourceType: 'patient',
      resourceId: '42',
      resourceListType: 'patients',
    });
  });

  it('404 on a GET of a known resource respects the opt-out', async () => {
    const { client, deps } = setup(() => json(404, {}));
    await expect(client.get('medical-acts/7/', { notFoundRedirect: false })).rejects.toMatchObject({
      status: 404,
    });
    expect(deps.onNotFound).not.toHaveBeenCalled();
  });

  it('404 on a GET of another path is only thrown', async () => {
    const { client, deps } = setup(() => json(404, {}));
    await expect(client.get('patients/42/documents/')).rejects.toMatchObject({ status: 404 });
    expect(deps.onNotFound).not.toHaveBeenCalled();
    expect(deps.onMissingOnWrite).not.toHaveBeenCalled();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    '404 on %s shows the missing-resource notice',
    async (method) => {
      const { client, deps } = setup(() => json(404, {}));
      await expect(client.request(method, 'patients/42/')).rejects.toMatchObject({ status: 404 });
      expect(deps.onMissingOnWrite).toHaveBeenCalledTimes(1);
      expect(deps.onNotFound).not.toHaveBeenCalled();
    },
  );

  it('other errors are rethrown as ApiError with status and body', async () => {
    const { client } = setup(() => json(400, { email: ['taken'], non_field_errors: ['no'] }));
    const error = (await client
      .post('register/', {}, { public: true })
      .catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.fieldError('email')).toBe('taken');
  });

  it('a network failure is an ApiError with status 0, not retried', async () => {
    const { client, fetchMock } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.get('stats/')).rejects.toMatchObject({ status: 0 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('an answer whose body is cut off on the way is an ApiError with status 0, not a raw TypeError', async () => {
    const { client } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"id":'));
              controller.error(new TypeError('network error'));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    const error = await client.get('profile/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0 });
  });

  it("the browser cancelling a call (page left or reloaded) is status 0; the caller's own abort stays an AbortError", async () => {
    const browserAbort = setup(() => {
      throw new DOMException('BodyStreamBuffer was aborted', 'AbortError');
    });
    await expect(browserAbort.client.get('profile/')).rejects.toMatchObject({ status: 0 });

    const controller = new AbortController();
    const ownAbort = setup(() => {
      controller.abort();
      throw new DOMException('The operation was aborted', 'AbortError');
    });
    const error = await ownAbort.client
      .get('patients/', { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
