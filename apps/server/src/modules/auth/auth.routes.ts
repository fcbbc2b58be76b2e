import { ZWaitingByHospital } from '@greensen/shared/contracts/profile';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { unauthorized } from '../../lib/errors.js';
import { type Lang, requestLang, translate } from '../../lib/i18n.js';
import { type PreSerialized, preSerialize } from '../../lib/pre-serialized.js';
import { authenticateToken, bearerToken } from '../../plugins/access.js';
import type { AuthUser } from '../users/users.repository.js';
import { authMessage } from './auth.messages.js';
import {
  type TUser,
  ZChangePasswordBody,
  ZDetail,
  ZDetailCode,
  ZEmailBody,
  ZFieldErrors,
  ZLoginBody,
  ZLoginResponse,
  ZLogoutBody,
  ZPinSetupBody,
  ZPinState,
  ZPinVerifyBody,
  ZProfileUpdateBody,
  ZRefreshBody,
  ZRegisterBody,
  ZRegisterResponse,
  ZResetBody,
  ZTokenPair,
  ZUnlockBody,
  ZUnlocked,
  ZUser,
  ZVerifyError,
  ZVerifyParams,
} from './auth.schemas.js';
import { AuthService, userBody } from './auth.service.js';
import { PasswordService } from './passwords.service.js';
import { PinService } from './pin.service.js';
import { RegistrationService } from './registration.service.js';

/**
 * `GET /api/profile/`'s answer, checked against its schema and written once per user object and language: the
 * cache of signed-in users (plugins/auth-cache.ts) hands every request of a user the same object until a change
 * notice replaces it, so the answer is made again exactly when the user changes (docs/performance.md §4).
 */
const profileAnswers = new WeakMap<AuthUser, Partial<Record<Lang, PreSerialized>>>();

function profileAnswer(user: AuthUser, lang: Lang): PreSerialized {
  const byLang = profileAnswers.get(user) ?? {};
  const answer = byLang[lang] ?? preSerialize(ZUser, userBody(user, lang));
  if (!byLang[lang]) profileAnswers.set(user, { ...byLang, [lang]: answer });
  return answer;
}

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
  }
}

/** Per IP: 60 a minute on the public account endpoints (per-account limits are in the service). */
const PER_IP = { max: 60, timeWindow: 60_000 } as const;
const PUBLIC = { public: true } as const;
const USER = { scope: 'user' } as const;

const ZUnlockFailedPin = z.object({ pin: z.array(z.string()), attempts_left: z.number().int() });
const ZUnlockFailedPassword = z.object({ password: z.array(z.string()), attempts_left: z.number().int() });

/**
 * Accounts and sessions: login, tokens, profile, registration, mailed links, passwords, PIN lock (issue 3).
 * Not encapsulated, so that `app.authService` is visible to the app (tests wait on its background work).
 */
export const authRoutes = fp(authRoutesPlugin, {
  name: 'auth-routes',
  dependencies: ['access', 'audit', 'rate-limit', 'mail'],
});

async function authRoutesPlugin(app: FastifyInstance) {
  const service = new AuthService(app);
  const registration = new RegistrationService(app, service);
  const passwords = new PasswordService(app, service);
  const pin = new PinService(app);
  app.decorate('authService', service);
  app.addHook('onClose', async () => service.idle());
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  r.post(
    '/api/login/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: ZLoginBody,
        response: {
          200: ZLoginResponse,
          400: ZFieldErrors,
          401: ZDetailCode,
          403: ZDetailCode,
          429: ZDetail,
        },
      },
    },
    async (request) => {
      const { user, ...pair } = await service.login(
        contextOf(request),
        request.body.email,
        request.body.password,
      );
      return { ...pair, user: userBody(user, requestLang(request)) };
    },
  );

  r.post(
    '/api/token/refresh/',
    {
      config: { access: PUBLIC, rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'Rotate the refresh token and get a new access token',
        description:
          'Each refresh token works once. Presenting one that was already used revokes its whole session.',
        body: ZRefreshBody,
        response: { 200: ZTokenPair, 400: ZFieldErrors, 401: ZDetailCode, 429: ZDetail },
      },
    },
    async (request) => service.refresh(contextOf(request), request.body.refresh),
  );

  r.post(
    '/api/logout/',
    {
      // Public: the refresh token alone proves the session, so signing out works even when the access token
      // has already expired (the web app signs out best-effort after a failed refresh).
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Sign out: revoke the session of the refresh token (and of the access token)',
        body: ZLogoutBody.optional(),
        response: { 200: ZDetail, 401: ZDetailCode },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      const auth = token ? await authenticateToken(app, token) : null;
      if (auth) {
        request.user = auth.user;
        request.sessionId = auth.sessionId;
      }
      if (!auth && !request.body?.refresh) throw unauthorized('auth.not_authenticated', 'not_authenticated');
      await service.logout(contextOf(request), request.body?.refresh);
      return { detail: translate(requestLang(request), authMessage('logout.done')) };
    },
  );

  r.get(
    '/api/profile/',
    {
      config: { access: USER },
      schema: { tags, summary: 'The signed-in user', response: { 200: ZUser, 401: ZDetailCode } },
    },
    async (request) => profileAnswer(request.user!, requestLang(request)) as unknown as TUser,
  );

  r.get(
    '/api/profile/waiting/',
    {
      config: { access: USER },
      schema: {
        tags,
        summary:
          'What waits for the signed-in user in each of her hospitals: patients assigned to her, abnormal results to see, unread notifications (counts only)',
        response: { 200: ZWaitingByHospital, 401: ZDetailCode },
      },
    },
    async (request) => service.waitingByHospital(request.user!),
  );

  r.put(
    '/api/profile/',
    {
      config: { access: USER },
      schema: {
        tags,
        summary: 'Update the language preference and names of the signed-in user',
        body: ZProfileUpdateBody,
        response: { 200: ZUser, 400: ZFieldErrors, 401: ZDetailCode },
      },
    },
    async (request) => {
      const user = await service.updateProfile(contextOf(request).user!.id, request.body.profile);
      return userBody(user, requestLang(request));
    },
  );

  r.post(
    '/api/register/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Create an account (then verify the email and wait for a hospital and a role)',
        body: ZRegisterBody,
        response: { 201: ZRegisterResponse, 400: ZFieldErrors, 429: ZDetail },
      },
    },
    async (request, reply) => {
      const lang = requestLang(request);
      const { username, ...rest } = request.body;
      const created = await registration.register(contextOf(request), {
        ...rest,
        username,
        language: request.body.language_preference ?? lang,
      });
      return reply.status(201).send({ ...created, detail: translate(lang, authMessage('register.created')) });
    },
  );

  r.get(
    '/api/verify-email/:uid/:token/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Verify the email address with the mailed link',
        params: ZVerifyParams,
        response: { 200: ZDetail, 400: ZVerifyError, 429: ZDetail },
      },
    },
    async (request, reply) => {
      const lang = requestLang(request);
      const ok = await registration.verifyEmail(contextOf(request), request.params.uid, request.params.token);
      if (!ok) return reply.status(400).send({ error: translate(lang, authMessage('verify.invalid')) });
      return { detail: translate(lang, authMessage('verify.done')) };
    },
  );

  r.post(
    '/api/register/resend-verification/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Send the verification link again (same answer for any address)',
        body: ZEmailBody,
        response: { 200: ZDetail, 400: ZFieldErrors, 429: ZDetail },
      },
    },
    async (request) => {
      await registration.resendVerification(contextOf(request), request.body.email);
      return { detail: translate(requestLang(request), authMessage('resend.sent')) };
    },
  );

  r.post(
    '/api/auth/forgot-password/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Mail a password reset link (same answer for known and unknown addresses)',
        body: ZEmailBody,
        response: { 200: ZDetail, 400: ZFieldErrors, 429: ZDetail },
      },
    },
    async (request) => {
      await passwords.forgotPassword(contextOf(request), request.body.email);
      return { detail: translate(requestLang(request), authMessage('forgot.sent')) };
    },
  );

  r.post(
    '/api/auth/reset-password/',
    {
      config: { access: PUBLIC, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Set a new password with the mailed link; every session of the user ends',
        body: ZResetBody,
        response: { 200: ZDetail, 400: ZFieldErrors, 429: ZDetail },
      },
    },
    async (request) => {
      await passwords.resetPassword(contextOf(request), request.body);
      return { detail: translate(requestLang(request), authMessage('reset.done')) };
    },
  );

  r.post(
    '/api/auth/change-password/',
    {
      config: { access: USER, rateLimit: PER_IP },
      schema: {
        tags,
        summary: 'Change the password; other sessions end and a fresh token pair is returned',
        body: ZChangePasswordBody,
        response: {
          200: ZTokenPair.extend({ detail: z.string() }),
          400: ZFieldErrors,
          401: ZDetailCode,
          429: ZDetail,
        },
      },
    },
    async (request) => {
      const pair = await passwords.changePassword(
        contextOf(request),
        request.body.current_password,
        request.body.new_password,
      );
      return { ...pair, detail: translate(requestLang(request), authMessage('password.changed')) };
    },
  );

  // Locked session on a shared workstation: unlock with a PIN, or with the password when no PIN is set.

  r.post(
    '/api/pin/setup/',
    {
      config: { access: USER },
      schema: {
        tags,
        summary: 'Set (or replace) the PIN that unlocks a locked session; needs the password',
        body: ZPinSetupBody,
        response: { 200: ZPinState, 400: ZFieldErrors, 401: ZDetailCode },
      },
    },
    async (request) => {
      await pin.setPin(contextOf(request), request.body.pin, request.body.password);
      return { has_pin: true };
    },
  );

  r.delete(
    '/api/pin/',
    {
      config: { access: USER },
      schema: { tags, summary: 'Remove the PIN', response: { 200: ZPinState, 401: ZDetailCode } },
    },
    async (request) => {
      await pin.removePin(contextOf(request));
      return { has_pin: false };
    },
  );

  r.post(
    '/api/pin/verify/',
    {
      config: { access: USER },
      schema: {
        tags,
        summary: 'Unlock a locked session with the PIN',
        description: 'The fifth wrong PIN in a row closes the session: 401 with code pin_locked.',
        body: ZPinVerifyBody,
        response: {
          200: ZUnlocked,
          400: z.union([ZUnlockFailedPin, ZFieldErrors]),
          401: ZDetailCode,
          409: ZDetail,
        },
      },
    },
    async (request, reply) => {
      const result = await pin.unlock(contextOf(request), 'pin', request.body.pin);
      if (result.ok) return { ok: true as const };
      return reply.status(400).send({
        pin: [translate(requestLang(request), authMessage('pin.wrong'))],
        attempts_left: result.attemptsLeft,
      });
    },
  );

  r.post(
    '/api/unlock/',
    {
      config: { access: USER },
      schema: {
        tags,
        summary: 'Unlock a locked session with the password',
        description: 'The fifth wrong password in a row closes the session: 401 with code pin_locked.',
        body: ZUnlockBody,
        response: { 200: ZUnlocked, 400: z.union([ZUnlockFailedPassword, ZFieldErrors]), 401: ZDetailCode },
      },
    },
    async (request, reply) => {
      const result = await pin.unlock(contextOf(request), 'password', request.body.password);
      if (result.ok) return { ok: true as const };
      return reply.status(400).send({
        password: [translate(requestLang(request), authMessage('password.wrong'))],
        attempts_left: result.attemptsLeft,
      });
    },
  );
}
