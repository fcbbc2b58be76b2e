import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { mailOutbox } from '../db/schema/index.js';
import { Mailer } from './mail.js';

describe('mailer without SMTP', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  const message = {
    to: 'someone@example.test',
    subject: 'Sujet',
    text: 'Ouvrez https://x.test/verify-email/u/SECRET-TOKEN',
    link: 'https://x.test/verify-email/u/SECRET-TOKEN',
  };

  function mailer(logLinks: boolean) {
    const info = vi.fn();
    const log = { info, warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
    return { info, mailer: new Mailer({ db: ctx.app.db, smtpUrl: undefined, from: 'x@y.z', log, logLinks }) };
  }

  it('writes the mail to the outbox and logs one line with the link (development)', async () => {
    const { info, mailer: m } = mailer(true);
    await m.send(message);
    expect(info).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(info.mock.calls[0])).toContain('SECRET-TOKEN');
    const rows = await ctx.app.db.select().from(mailOutbox);
    expect(rows.some((r) => r.textBody === message.text && r.error === null)).toBe(true);
  });

  it('never logs the link in production', async () => {
    const { info, mailer: m } = mailer(false);
    await m.send(message);
    expect(info).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(info.mock.calls)).not.toContain('SECRET-TOKEN');
    expect(JSON.stringify(info.mock.calls)).not.toContain('someone@example.test');
  });
});
