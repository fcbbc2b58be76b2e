import { createHash, randomBytes } from 'node:crypto';
import type { TIcsLinkCreated, TIcsLinkState } from '@greensen/shared/contracts/appointments';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../db/schema/common.js';
import { iso } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { languageOf, translate } from '../../lib/i18n.js';
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
    const res = await this.app.db.execute<{ created_at: Date | string; last_used_at: Date | string | null }>(
      sql`select created_at, last_used_at from ics_links
        where hospital_id = ${scopedHospital(ctx).id} and user_id = ${actingUser(ctx).id} and revoked_at is null`,
    );
    const r = res.rows[0];
    return { active: Boolean(r), created_at: iso(r?.created_at), last_used_at: iso(r?.last_used_at) };
  }

  /** Creates my link, or rotates it (the old one stops working at once). */
  async create(ctx: ServiceContext): Promise<TIcsLinkCreated> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const token = randomBytes(32).toString('base64url');
    const id = uuidv7();
    await this.app.db.transaction(async (tx) => {
      await tx.execute(sql`update ics_links set revoked_at = now()
        where hospital_id = ${hospital.id} and user_id = ${me} and revoked_at is null`);
      await tx.execute(sql`insert into ics_links (id, hospital_id, user_id, token_hash)
        values (${id}, ${hospital.id}, ${me}, ${hashOf(token)})`);
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
      await tx.execute(sql`update ics_links set revoked_at = now()
        where hospital_id = ${hospital.id} and user_id = ${me} and revoked_at is null`);
      await this.app.audit.record(
        ctx,
        { action: 'appointment.ics_link_revoke', resourceType: 'ics_link' },
        tx,
      );
    });
  }

  /** The feed of a link's owner (404 for an unknown or revoked token). */
  async feed(ctx: ServiceContext, token: string): Promise<string> {
    const link = await this.app.db.execute<{
      id: string;
      hospital_id: string;
      user_id: string;
      language_preference: string;
      first_name: string;
      last_name: string;
      h_name: string;
      is_active: boolean;
    }>(sql`select l.id, l.hospital_id, l.user_id, u.language_preference, u.first_name, u.last_name,
        h.name as h_name, u.is_active
      from ics_links l join users u on u.id = l.user_id join hospitals h on h.id = l.hospital_id
      where l.token_hash = ${hashOf(token)} and l.revoked_at is null
        and exists (select 1 from memberships m where m.user_id = l.user_id and m.hospital_id = l.hospital_id
          and m.is_active)`);
    const l = link.rows[0];
    if (!l || !l.is_active) throw notFound();
    const lang = languageOf(l.language_preference);
    const now = this.app.jobs.now();
    const rows = await this.app.db.execute<{
      id: string;
      start_at: Date | string;
      end_at: Date | string;
      appointment_type: string;
      status: string;
      record_number: string;
      d_name: string;
    }>(sql`select a.id, a.start_at, a.end_at, a.appointment_type, a.status, p.record_number, d.name as d_name
      from appointments a join patients p on p.id = a.patient_id join departments d on d.id = a.department_id
      where a.hospital_id = ${l.hospital_id} and a.provider_id = ${l.user_id} and a.status <> 'cancelled'
        and a.start_at >= ${new Date(now.getTime() - PAST_DAYS * DAY).toISOString()}::timestamptz
        and a.start_at < ${new Date(now.getTime() + AHEAD_DAYS * DAY).toISOString()}::timestamptz
      order by a.start_at limit 5000`);
    await this.app.db.execute(sql`update ics_links set last_used_at = now() where id = ${l.id}`);
    await this.app.audit.record(ctx, {
      action: 'appointment.ics_feed',
      resourceType: 'ics_link',
      resourceId: l.id,
      userId: l.user_id,
      hospitalId: l.hospital_id,
      details: { events: rows.rows.length },
    });
    return icsCalendar({
      name: `${l.h_name} — ${[l.first_name, l.last_name].filter(Boolean).join(' ')}`,
      now,
      events: rows.rows.map((r) => ({
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
