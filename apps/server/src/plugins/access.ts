import { canAccessModule } from '@greensen/shared/domain/access';
import { MODULES, type ModuleName } from '@greensen/shared/domain/modules';
import { type DashboardGroup, roleGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthorized } from '../lib/errors.js';
import { verifyAccessToken } from '../lib/tokens.js';
import { type AuthUser, loadAuthUserInSession, rememberHospital } from '../modules/users/users.repository.js';
import { isApiDocsPath } from './openapi.js';

/**
 * The access policy every API route declares in its `config.access`, in one place beside its schemas:
 * - `{ public: true }`: no authentication (login, health, public config…);
 * - `{ scope: 'user' }`: any signed-in user, no hospital (profile, logout…);
 * - `{ scope: 'hospital', module, roles }`: a member of the `Hospital-ID` hospital whose role group is in
 *   `roles` (or `'any'`), and — when `module` is set — allowed that module in this environment.
 * A route under /api/ without a policy makes the app refuse to start.
 */
export type RouteAccess =
  | { public: true }
  | { scope: 'user' }
  | { scope: 'hospital'; module: ModuleName | null; roles: readonly DashboardGroup[] | 'any' };

export interface HospitalScope {
  id: string;
  name: string;
  code: string;
  roleCodes: string[];
  groups: DashboardGroup[];
  departmentIds: string[];
}

/** An /api (or /fhir) route as registered, with its policy and schemas: what the authorization matrix is generated from. */
export interface PolicedRoute {
  method: string;
  url: string;
  access: RouteAccess;
  schema: RouteOptions['schema'];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every /api route with its access policy, in registration order (filled by the onRoute hook). */
    apiRoutes: readonly PolicedRoute[];
  }
  interface FastifyRequest {
    user: AuthUser | null;
    hospital: HospitalScope | null;
    /** Session (refresh-token family) of the access token, when known. */
    sessionId: string | null;
  }
}

/** The OpenAPI document and its interactive page are public (registered by @fastify/swagger-ui). */
const MODULE_NAMES = new Set<string>(MODULES.map((m) => m.name));
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function routeAccess(route: Pick<RouteOptions, 'config'>): RouteAccess | undefined {
  return (route.config as { access?: RouteAccess } | undefined)?.access;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * Verifies an access token and loads its user; null when the token, the user or the token's session (`sid`:
 * logout, refresh-token reuse, PIN lockout, password reset) is not valid any more. One query, or none when the
 * instance's cache of signed-in users has them (plugins/auth-cache.ts).
 */
export async function authenticateToken(app: FastifyInstance, token: string) {
  const claims = await verifyAccessToken(app.config.jwtSecret, token);
  if (!claims || !UUID_RE.test(claims.userId)) return null;
  const sessionId = claims.sessionId ?? null;
  if (sessionId !== null && !UUID_RE.test(sessionId)) return null;
  let user = app.authCache.get(claims.userId, sessionId);
  if (!user) {
    const ticket = app.authCache.ticket();
    const found = await loadAuthUserInSession(app.db, claims.userId, sessionId);
    if (!found?.user.isActive || (sessionId !== null && !found.sessionActive)) return null;
    user = found.user;
    app.authCache.store(ticket, sessionId, user);
  }
  if (user.tokenVersion !== claims.tokenVersion) return null;
  return { user, sessionId };
}

export function hospitalScopeOf(user: AuthUser, hospitalId: string): HospitalScope | null {
  const ms = user.memberships.filter((m) => m.hospitalId === hospitalId);
  const first = ms[0];
  if (!first) return null;
  const roleCodes = [...new Set(ms.map((m) => m.roleCode))];
  return {
    id: hospitalId,
    name: first.hospitalName,
    code: first.hospitalCode,
    roleCodes,
    groups: [...new Set(roleCodes.map(roleGroup))],
    departmentIds: ms.flatMap((m) => (m.departmentId ? [m.departmentId] : [])),
  };
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('user', null);
    app.decorateRequest('hospital', null);
    app.decorateRequest('sessionId', null);
    const apiRoutes: PolicedRoute[] = [];
    app.decorate('apiRoutes', apiRoutes);
    const remember = (route: RouteOptions, url: string, access: RouteAccess) => {
      for (const method of [route.method].flat())
        apiRoutes.push({ method, url, access, schema: route.schema });
    };

    app.addHook('onRoute', (route) => {
      const url = route.url ?? route.path;
      // The JSON API and the FHIR endpoint (issue 39) declare their policies the same way.
      if (!url.startsWith('/api/') && !url.startsWith('/fhir/')) return;
      if (isApiDocsPath(url)) {
        route.config = { ...(route.config ?? {}), access: routeAccess(route) ?? { public: true } };
        remember(route, url, routeAccess(route)!);
        return;
      }
      const access = routeAccess(route);
      if (!access) throw new Error(`Route ${route.method} ${url} declares no access policy (config.access)`);
      if (
        'scope' in access &&
        access.scope === 'hospital' &&
        access.module &&
        !MODULE_NAMES.has(access.module)
      ) {
        throw new Error(`Route ${route.method} ${url} names an unknown module "${access.module}"`);
      }
      remember(route, url, access);
    });

    app.addHook('onRequest', async (request) => {
      const access = routeAccess(request.routeOptions);
      if (!access || 'public' in access) return;
      const token = bearerToken(request);
      if (!token) throw unauthorized('auth.not_authenticated', 'not_authenticated');
      const auth = await authenticateToken(app, token);
      if (!auth) throw unauthorized();
      request.user = auth.user;
      request.sessionId = auth.sessionId;
      if (access.scope !== 'hospital') return;

      const header = request.headers['hospital-id'];
      if (typeof header !== 'string' || header.length === 0) {
        throw new ApiError(400, 'auth.hospital_required', {
          fields: { 'Hospital-ID': ['auth.hospital_required'] },
        });
      }
      const scope = UUID_RE.test(header) ? hospitalScopeOf(auth.user, header.toLowerCase()) : null;
      if (!scope) {
        await app.audit.refusal(request, 'hospital_scope', { hospital_id: header.slice(0, 64) });
        throw forbidden('auth.hospital_forbidden');
      }
      request.hospital = scope;
      await rememberHospital(app.db, auth.user, scope.id);
      if (access.module) {
        const verdict = canAccessModule({
          moduleName: access.module,
          environment: app.config.appEnv,
          extraModules: app.config.extraModules,
          user: { active_roles: scope.roleCodes.map((role_code) => ({ role_code })) },
        });
        if (!verdict.allowed) {
          await app.audit.refusal(request, 'module', { module: access.module, reason: verdict.reason });
          throw forbidden('auth.forbidden');
        }
      }
      if (
        access.roles !== 'any' &&
        !scope.groups.some((g) => (access.roles as readonly string[]).includes(g))
      ) {
        await app.audit.refusal(request, 'role', { roles: scope.roleCodes });
        throw forbidden('auth.forbidden');
      }
    });
  },
  { name: 'access', dependencies: ['db', 'audit', 'auth-cache'] },
);
