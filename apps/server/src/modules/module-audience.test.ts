/**
 * One rule for a module's pages (issue 36): for a module whose pages are reading one action
 * (`MODULE_ENTRY_ACTION`), the groups the web app's navigation and module guard let in (`MODULE_AUDIENCE`) are
 * exactly the groups the API's entry route lets through, and the reviewed access policy says the same. An
 * administrator saw "Rendez-vous" in her navigation while `GET /api/appointments/` refused her.
 */
import { MODULE_AUDIENCE, MODULE_ENTRY_ACTION } from '@greensen/shared/domain/access';
import type { ModuleName } from '@greensen/shared/domain/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../test/factories.js';
import { ACCESS_MATRIX } from './access-matrix.js';

/** The route each of these modules' list page reads first. */
const ENTRY_ROUTE: Record<string, string> = {
  appointments: 'GET /api/appointments/',
  care: 'GET /api/care/patients/',
  analytics: 'GET /api/stats/',
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const sorted = (groups: readonly string[]) => [...groups].sort();

describe('module audience = entry route’s groups (issue 36)', () => {
  it('names an entry route for every module with an entry action', () => {
    expect(Object.keys(ENTRY_ROUTE).sort()).toEqual(Object.keys(MODULE_ENTRY_ACTION).sort());
  });

  it.each(Object.entries(ENTRY_ROUTE))('%s: %s lets through exactly the module’s audience', (module, key) => {
    const [method, url] = key.split(' ');
    const route = ctx.app.apiRoutes.find((r) => r.method === method && r.url === url);
    expect(route, key).toBeDefined();
    const access = route?.access;
    const roles = access && 'roles' in access && access.roles !== 'any' ? access.roles : [];
    expect(sorted(roles)).toEqual(sorted(MODULE_AUDIENCE[module as ModuleName]));
    const allow = ACCESS_MATRIX[key]?.allow;
    expect(sorted(typeof allow === 'string' ? [allow] : (allow ?? []))).toEqual(
      sorted(MODULE_AUDIENCE[module as ModuleName]),
    );
  });

  it('refuses the appointments list to an administrator, whose navigation no longer shows it', async () => {
    const hospital = await makeHospital(ctx.database.db);
    const admin = await makeUser(ctx.database.db, { role: 'ADMIN', hospitals: [{ id: hospital.id }] });
    const headers = authHeaders(await tokenFor(ctx.config.jwtSecret, admin), hospital.id);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/appointments/', headers });
    expect(res.statusCode).toBe(403);
    expect(MODULE_AUDIENCE.appointments).not.toContain('admin');
  });
});
