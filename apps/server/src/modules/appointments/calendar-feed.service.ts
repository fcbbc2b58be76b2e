import { createHash, randomBytes } from 'node:crypto';
import type { TIcsLinkCreated, TIcsLinkState } from '@greensen/shared/contracts/appointments';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../db/schema/common.js';
import { iso } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { languageOf, translate } from '../../lib/i18n.js';
import {
  activeIcsLink,
  feedAppointments,
  findIcsLinkByHash,
  insertIcsLink,
  revokeIcsLinks,
  touchIcsLink,
} from './calendar-feed.repository.js';
import { icsCalendar } from './ics.js';

const DAY = 86_400_000;
/** The feed covers this many days back and ahead. */
const PAST_DAYS = 30;
const AHEAD_DAYS = 180;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A person's iCalendar feed of their appointments (issue 22): a revocable personal link whose token is shown once
 * and kept only as its SHA-256 (like every other token). The feed carries times, types and record numbers only —
 * never a patient's name. The link works while the person's account and a membership of its hospital are active; a
 * password change, and the end or return of the account or of the membership, revoke it (triggers of migration
 * 0043, issue 36): a reactivated provider makes a new link.
 */
export class CalendarFeedService {
  constructor(private readonly app: FastifyInstance) {}

  async state(ctx: ServiceContext): Promise<TIcsLinkState> {
    const r = await activeIcsLink(this.app.db, scopedHospital(ctx).id, actingUser(ctx).id);
    return { active: Boolean(r), created_at: iso(r?.created_at), last_used_at: iso(r?.last_used_at) };
  }

  /** Creates my link, or rotates it (the old one stops working at once). */
  async create(ctx: ServiceContext): Promise<TIcsLinkCreated> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const token = randomBytes(32).toString('base64url');
    const id = uuidv7();
    await this.app.db.transaction(async (tx) => {
      await revokeIcsLinks(tx, hospital.id, me);
      await insertIcsLink(tx, { id, hospitalId: hospital.id, userId: me, tokenHash: hashOf(token) });
      await this.app.audit.record(
        ctx,
        { action: 'appointment.ics_link_create', resourceType: 'ics_link', resourceId: id },
        tx,
      );
    });
    return {
      active: true,
      created_at: new Date().toISOString(),
      last_used_at: null,
      url: `/api/appointments/ics/${token}.ics`,
    };
  }

  async revoke(ctx: ServiceContext) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await this.app.db.transaction(async (tx) => {
      await revokeIcsLinks(tx, hospital.id, me);
      await this.app.audit.record(
        ctx,
        { action: 'appointment.ics_link_revoke', resourceType: 'ics_link' },
        tx,
      );
    });
  }

  /** The feed of a link's owner (404 for an unknown or revoked token). */
  async feed(ctx: ServiceContext, token: string): Promise<string> {
    const l = await findIcsLinkByHash(this.app.db, hashOf(token));
    if (!l?.is_active) throw notFound();
    const lang = languageOf(l.language_preference);
    const now = this.app.jobs.now();
    const rows = await feedAppointments(
      this.app.db,
      l.hospital_id,
      l.user_id,
      new Date(now.getTime() - PAST_DAYS * DAY),
      new Date(now.getTime() + AHEAD_DAYS * DAY),
    );
    await touchIcsLink(this.app.db, l.id);
    await this.app.audit.record(ctx, {
      action: 'appointment.ics_feed',
      resourceType: 'ics_link',
      resourceId: l.id,
      userId: l.user_id,
      hospitalId: l.hospital_id,
      details: { events: rows.length },
    });
    return icsCalendar({
      name: `${l.h_name} — ${[l.first_name, l.last_name].filter(Boolean).join(' ')}`,
      now,
      events: rows.map((r) => ({
        uid: `${r.id}@greensen`,
        start: new Date(r.start_at),
        end: new Date(r.end_at),
        summary: `${translate(lang, `appointments.type.${r.appointment_type}`)} — ${r.record_number}`,
        description: translate(lang, `appointments.status.${r.status}`),
        location: r.d_name,
        status: r.status === 'booked' ? 'TENTATIVE' : 'CONFIRMED',
      })),
    });
  }
}
