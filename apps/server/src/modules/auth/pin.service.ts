import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext } from '../../lib/context.js';
import { ApiError, badRequest, conflict, unauthorized } from '../../lib/errors.js';
import { hashSecret, verifySecret } from '../../lib/passwords.js';
import * as repo from './auth.repository.js';

/** Wrong PINs or passwords in a row before a locked session is closed. */
export const MAX_UNLOCK_FAILURES = 5;

export type UnlockResult = { ok: true } | { ok: false; attemptsLeft: number };

/** The locked session (issue 3): the user's PIN, and unlocking with the PIN or the password. */
export class PinService {
  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.db;
  }

  async setPin(ctx: ServiceContext, pin: string, password: string) {
    const userId = actingUser(ctx).id;
    const account = await repo.findAccountById(this.db, userId);
    if (!account || !(await verifySecret(account.passwordHash, password)))
      throw badRequest({ password: ['password.wrong'] });
    const pinHash = await hashSecret(pin);
    await this.db.transaction(async (tx) => {
      await repo.setPinHash(tx, userId, pinHash);
      await this.app.audit.record(ctx, { action: 'auth.pin_set', hospitalId: null }, tx);
    });
  }

  async removePin(ctx: ServiceContext) {
    await this.db.transaction(async (tx) => {
      await repo.setPinHash(tx, actingUser(ctx).id, null);
      await this.app.audit.record(ctx, { action: 'auth.pin_removed', hospitalId: null }, tx);
    });
  }

  /**
   * Unlocks a locked session with the PIN or the password. Success resets the failure count; the fifth
   * failure in a row closes this session (401 pin_locked) and nothing else.
   */
  async unlock(ctx: ServiceContext, method: 'pin' | 'password', secret: string): Promise<UnlockResult> {
    const userId = actingUser(ctx).id;
    const account = await repo.findAccountById(this.db, userId);
    if (!account) throw unauthorized();
    const hash = method === 'pin' ? account.pinHash : account.passwordHash;
    if (!hash) throw conflict('pin.not_set');
    if (await verifySecret(hash, secret)) {
      await repo.resetUnlockFailures(this.db, userId);
      return { ok: true };
    }
    const failures = await repo.addUnlockFailure(this.db, userId);
    if (failures < MAX_UNLOCK_FAILURES) return { ok: false, attemptsLeft: MAX_UNLOCK_FAILURES - failures };
    await this.db.transaction(async (tx) => {
      await repo.resetUnlockFailures(tx, userId);
      if (ctx.sessionId) await repo.revokeSession(tx, ctx.sessionId, 'pin_locked');
      await this.app.audit.record(
        ctx,
        {
          action: 'auth.pin_lockout',
          outcome: 'denied',
          hospitalId: null,
          resourceType: 'session',
          resourceId: ctx.sessionId,
          details: { method, failures },
        },
        tx,
      );
    });
    throw new ApiError(401, 'pin.locked', { code: 'pin_locked' });
  }
}
