import { randomUUID } from 'node:crypto';
import { ACTION_GROUPS, type Action } from '@greensen/shared/domain/permissions';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuthUser } from '../modules/users/users.repository.js';
import type { HospitalScope } from '../plugins/access.js';
import { type Lang, requestLang } from './i18n.js';

/**
 * Who acts: a signed-in user (through a request), or the system (a background job, the CLI, start-up work)
 * acting on behalf of the user or the rule that caused the work.
 */
export type Actor =
  | { kind: 'user'; user: AuthUser; sessionId: string | null }
  | {
      kind: 'system';
      /** What runs: a job name (`mail.deliver`), a CLI command (`cli:import-icd10`), `startup`. */
      source: string;
      /** The user whose action caused this work (a reminder booked by a secretary), when there is one. */
      onBehalfOf: string | null;
      /** The rule that caused it (`appointments.reminder`), when there is one. */
      rule: string | null;
    };

/**
 * What every service method receives instead of the HTTP request: who acts, in which hospital, the request
 * (or job run) id for logs and audit, the language of messages, the client address when there is one.
 * Routes build it with `contextOf(request)`; jobs and the CLI with `systemContext(…)`.
 */
export interface ServiceContext {
  actor: Actor;
  /** The signed-in user acting, or null when the system acts (see `actor`). */
  user: AuthUser | null;
  /** The hospital the work is scoped to (the request's Hospital-ID, or the job's hospital). */
  hospital: HospitalScope | null;
  /** The request id (x-request-id) or the job run's id: ties log lines and audit rows together. */
  requestId: string;
  lang: Lang;
  ip: string | null;
  /** The client's User-Agent (cut to 300 characters), when there is one. */
  userAgent: string | null;
  /** The session the user acts through (a request with a bearer token), else null. */
  sessionId: string | null;
  log: FastifyBaseLogger;
  /** Set once a refusal or failure of this unit of work is in the audit trail, so that it is written once. */
  refusalAudited: boolean;
}

const contexts = new WeakMap<FastifyRequest, ServiceContext>();

/**
 * The request's context (one object per request, built on first use): the user, hospital and session set by
 * the access plugin, the request id, the Accept-Language language, the client address.
 */
export function contextOf(request: FastifyRequest): ServiceContext {
  let ctx = contexts.get(request);
  if (!ctx) {
    const user = request.user ?? null;
    ctx = {
      actor: user
        ? { kind: 'user', user, sessionId: request.sessionId ?? null }
        : { kind: 'system', source: 'anonymous-request', onBehalfOf: null, rule: null },
      user,
      hospital: request.hospital ?? null,
      requestId: String(request.id),
      lang: requestLang(request),
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      sessionId: request.sessionId ?? null,
      log: request.log,
      refusalAudited: false,
    };
    contexts.set(request, ctx);
  } else if (!ctx.user && request.user) {
    // Built before sign-in was resolved (public routes that sign in): follow the request.
    ctx.user = request.user;
    ctx.actor = { kind: 'user', user: request.user, sessionId: request.sessionId ?? null };
    ctx.hospital = request.hospital ?? null;
    ctx.sessionId = request.sessionId ?? null;
  }
  return ctx;
}

export interface SystemContextOptions {
  source: string;
  log: FastifyBaseLogger;
  hospital?: HospitalScope | null;
  onBehalfOf?: string | null;
  rule?: string | null;
  lang?: Lang;
  /** The job run's id; a new id when absent. */
  requestId?: string;
}

/** A context for work no request triggers: a job, the CLI, start-up. */
export function systemContext(o: SystemContextOptions): ServiceContext {
  return {
    actor: { kind: 'system', source: o.source, onBehalfOf: o.onBehalfOf ?? null, rule: o.rule ?? null },
    user: null,
    hospital: o.hospital ?? null,
    requestId: o.requestId ?? randomUUID(),
    lang: o.lang ?? 'fr',
    ip: null,
    userAgent: null,
    sessionId: null,
    log: o.log,
    refusalAudited: false,
  };
}

/** The signed-in user of a context whose route requires one (every non-public route): throws otherwise. */
export function actingUser(ctx: ServiceContext): AuthUser {
  if (!ctx.user) throw new Error('this work needs a signed-in user');
  return ctx.user;
}

/** The hospital of a context whose route is hospital-scoped: throws otherwise. */
export function scopedHospital(ctx: ServiceContext): HospitalScope {
  if (!ctx.hospital) throw new Error('this work needs a hospital scope');
  return ctx.hospital;
}

/** Whether one of the caller's role groups in the context's hospital may take `action` (shared ACTION_GROUPS). */
export function mayAct(ctx: ServiceContext, action: Action): boolean {
  return (ctx.hospital?.groups ?? []).some((g) => ACTION_GROUPS[action].includes(g));
}
