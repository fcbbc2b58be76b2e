import type {
  THandoff,
  THandoffCreate,
  THandoffDraft,
  TShift,
  ZHandoffListItem,
} from '@greensen/shared/contracts/care';
import type { News2Result } from '@greensen/shared/domain/news2';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { careHandoffs } from '../../db/schema/index.js';
import { departmentRef, fullName, iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { type HospitalClock, hospitalClock, shiftDto, shiftOf } from './care.context.js';
import {
  inScope,
  PLAN_COLUMNS,
  PLAN_FROM,
  PLAN_IS_OPEN,
  type PlanRow,
  parseJson,
  personOf,
  placeOf,
} from './care.repository.js';
import type { CareService } from './care.service.js';

type Change = THandoffDraft['changes'][number];

const T = {
  fr: {
    news2: (s: number, risk: string) =>
      `NEWS2 ${s} (${risk === 'high' ? 'élevé' : risk === 'medium' ? 'moyen' : 'paramètre rouge'})`,
    vitals: 'Constantes hors normes',
    notGiven: (m: string, r: string) => `Dose non administrée : ${m} (${r})`,
    order: (t: string) => `Nouvelle prescription de soins : ${t}`,
    notDone: (t: string, r: string) => `Soin non fait : ${t} (${r})`,
    result: (e: string, abnormal: boolean) => `Résultat : ${e}${abnormal ? ' (anormal)' : ''}`,
    situation: (p: string, age: string, place: string) => `${p}${age}, ${place}.`,
    background: (reason: string, allergies: string) =>
      `${reason}${allergies ? `\nAllergies : ${allergies}` : ''}`,
    noChange: 'Pas d’événement notable pendant le poste.',
    todo: 'À faire',
    age: (n: number) => `, ${n} ans`,
  },
  en: {
    news2: (s: number, risk: string) =>
      `NEWS2 ${s} (${risk === 'high' ? 'high' : risk === 'medium' ? 'medium' : 'red parameter'})`,
    vitals: 'Vital signs out of range',
    notGiven: (m: string, r: string) => `Dose not given: ${m} (${r})`,
    order: (t: string) => `New care order: ${t}`,
    notDone: (t: string, r: string) => `Care not done: ${t} (${r})`,
    result: (e: string, abnormal: boolean) => `Result: ${e}${abnormal ? ' (abnormal)' : ''}`,
    situation: (p: string, age: string, place: string) => `${p}${age}, ${place}.`,
    background: (reason: string, allergies: string) =>
      `${reason}${allergies ? `\nAllergies: ${allergies}` : ''}`,
    noChange: 'Nothing of note during the shift.',
    todo: 'To do',
    age: (n: number) => `, ${n} y`,
  },
} as const;

const HANDOFF_SELECT = sql`select ho.*, au.first_name as au_first, au.last_name as au_last,
    ak.first_name as ak_first, ak.last_name as ak_last, ${PLAN_COLUMNS} ${PLAN_FROM}
  join care_handoffs ho on ho.plan_id = cp.id
  join users au on au.id = ho.author_id left join users ak on ak.id = ho.acknowledged_by`;

/** SBAR shift handoffs (issue 20): pre-filled, written by the outgoing nurse, acknowledged by another. */
export class HandoffService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {}

  /** What changed for a plan in `[from, to)`, oldest first, in the caller's language. */
  async changes(q: Queryable, plan: PlanRow, from: Date, to: Date, lang: Lang): Promise<Change[]> {
    const t = T[lang];
    const f = from.toISOString();
    const e = to.toISOString();
    // One after the other: `q` may be a transaction (one connection).
    const vitals = await q.execute<{ recorded_at: Date | string; news2: News2Result | string | null }>(
      sql`select recorded_at, news2 from care_vitals where plan_id = ${plan.plan_id}
          and recorded_at >= ${f} and recorded_at < ${e} order by recorded_at`,
    );
    const doses = await q.execute<{
      scheduled_at: Date | string;
      reason: string;
      inn_fr: string;
      inn_en: string;
    }>(
      sql`select ma.scheduled_at, ma.reason, m.inn_fr, m.inn_en from medication_administrations ma
          join prescription_lines l on l.id = ma.prescription_line_id join medications m on m.id = l.medication_id
          where ma.plan_id = ${plan.plan_id} and ma.outcome = 'not_given'
            and ma.recorded_at >= ${f} and ma.recorded_at < ${e} order by ma.scheduled_at`,
    );
    const orders = await q.execute<{ ordered_at: Date | string; title: string }>(
      sql`select ordered_at, title from care_orders where plan_id = ${plan.plan_id}
          and ordered_at >= ${f} and ordered_at < ${e} order by ordered_at`,
    );
    const notDone = await q.execute<{ recorded_at: Date | string; title: string; not_done_reason: string }>(
      sql`select ex.recorded_at, o.title, ex.not_done_reason from care_executions ex
          join care_orders o on o.id = ex.order_id
          where ex.plan_id = ${plan.plan_id} and ex.status = 'not_done'
            and ex.recorded_at >= ${f} and ex.recorded_at < ${e} order by ex.recorded_at`,
    );
    const results = await q.execute<{
      validated_at: Date | string;
      name_fr: string;
      name_en: string;
      abnormal: boolean;
    }>(
      sql`select x.validated_at, c.name_fr, c.name_en, x.abnormal from exam_orders x
          join exam_catalogue c on c.id = x.exam_id
          where x.patient_id = ${plan.p_id} and x.validated_at >= ${f} and x.validated_at < ${e}
          order by x.validated_at`,
    );
    const out: Change[] = [];
    for (const v of vitals.rows) {
      const n = parseJson<News2Result>(v.news2);
      if (!n) continue;
      if (n.escalation !== 'none')
        out.push({ kind: 'news2', at: isoRequired(v.recorded_at), text: t.news2(n.score, n.risk) });
      else if (Object.values(n.breakdown).some((p) => (p ?? 0) >= 2))
        out.push({ kind: 'vitals', at: isoRequired(v.recorded_at), text: `${t.vitals} (NEWS2 ${n.score})` });
    }
    for (const d of doses.rows)
      out.push({
        kind: 'dose_not_given',
        at: isoRequired(d.scheduled_at),
        text: t.notGiven(lang === 'fr' ? d.inn_fr : d.inn_en, d.reason),
      });
    for (const o of orders.rows)
      out.push({ kind: 'new_order', at: isoRequired(o.ordered_at), text: t.order(o.title) });
    for (const x of notDone.rows)
      out.push({
        kind: 'execution_not_done',
        at: isoRequired(x.recorded_at),
        text: t.notDone(x.title, x.not_done_reason),
      });
    for (const r of results.rows)
      out.push({
        kind: 'result',
        at: isoRequired(r.validated_at),
        text: t.result(lang === 'fr' ? r.name_fr : r.name_en, Boolean(r.abnormal)),
      });
    return out.sort((a, b) => a.at.localeCompare(b.at));
  }

  /** The SBAR of the current shift pre-filled with its changes (and the open tasks as recommendations). */
  async draft(ctx: ServiceContext, planId: string): Promise<THandoffDraft> {
    const plan = await this.care.plan(ctx, planId);
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, scopedHospital(ctx).id);
    const shift = shiftOf(clock, now);
    const t = T[ctx.lang];
    const changes = await this.changes(this.app.db, plan, shift.start, shift.end, ctx.lang);
    const [reason, open, existing] = await Promise.all([
      this.app.db.execute<{ reason: string | null }>(
        sql`select coalesce(s.reason, a.reason) as reason from care_plans cp
          left join hospitalizations s on s.id = cp.hospitalization_id left join admissions a on a.id = cp.admission_id
          where cp.id = ${planId}`,
      ),
      this.app.db.execute<{ title: string; scheduled_at: Date | string }>(
        sql`select o.title, min(e.scheduled_at) as scheduled_at from care_executions e
          join care_orders o on o.id = e.order_id
          where e.plan_id = ${planId} and e.status = 'scheduled' and e.scheduled_at < ${shiftOf(clock, now, 1).end.toISOString()}
          group by o.title order by 2 limit 10`,
      ),
      this.app.db.execute<{ id: string }>(
        sql`select id from care_handoffs where plan_id = ${planId} and shift_start = ${shift.start.toISOString()}`,
      ),
    ]);
    const patient = patientRef(plan);
    const place = placeOf(plan);
    const where = place ? `${place.ward.name}, ${place.bed.label}` : plan.d_name;
    const time = (at: string) =>
      new Intl.DateTimeFormat(ctx.lang === 'fr' ? 'fr-FR' : 'en-GB', {
        timeZone: clock.timeZone,
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(at));
    await this.app.audit.record(ctx, {
      action: 'care.handoff_draft',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.p_id,
    });
    return {
      plan: planId,
      shift: shiftDto(clock, shift),
      situation: t.situation(patient.full_name, patient.age !== null ? t.age(patient.age) : '', where),
      background: t.background(reason.rows[0]?.reason ?? '', patient.allergies.join(', ')),
      assessment: changes.length > 0 ? changes.map((c) => `${time(c.at)} ${c.text}`).join('\n') : t.noChange,
      recommendation: open.rows
        .map((o) =>
          `${t.todo} : ${o.title} (${time(isoRequired(o.scheduled_at))})`.replace(
            ' : ',
            ctx.lang === 'fr' ? ' : ' : ': ',
          ),
        )
        .join('\n'),
      changes,
      existing: existing.rows[0]?.id ?? null,
    };
  }

  async create(ctx: ServiceContext, body: THandoffCreate): Promise<THandoff> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, hospital.id);
    const shift = shiftOf(clock, now);
    const id = await this.app.db.transaction(async (tx) => {
      const plan = await this.care.plan(ctx, body.plan, tx);
      if (!plan.is_open) throw conflict('care.plan_closed');
      const changes = await this.changes(tx, plan, shift.start, shift.end, ctx.lang);
      try {
        const [row] = await tx
          .insert(careHandoffs)
          .values({
            hospitalId: hospital.id,
            planId: body.plan,
            patientId: plan.p_id,
            shiftStart: shift.start,
            shiftEnd: shift.end,
            shiftLabel: shift.label,
            situation: body.situation,
            background: body.background ?? '',
            assessment: body.assessment ?? '',
            recommendation: body.recommendation ?? '',
            changes,
            authorId: me,
            writtenAt: now,
          })
          .returning({ id: careHandoffs.id });
        await this.app.audit.record(
          ctx,
          {
            action: 'care.handoff_create',
            resourceType: 'care_handoff',
            resourceId: row!.id,
            patientId: plan.p_id,
            details: { plan: body.plan, shift: shift.start.toISOString() },
          },
          tx,
        );
        return row!.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('care.handoff_exists');
        throw err;
      }
    });
    return this.detail(ctx, id, clock);
  }

  async read(ctx: ServiceContext, id: string): Promise<THandoff> {
    const clock = await hospitalClock(this.app.db, scopedHospital(ctx).id);
    const handoff = await this.detail(ctx, id, clock);
    await this.app.audit.record(ctx, {
      action: 'care.handoff_read',
      resourceType: 'care_handoff',
      resourceId: id,
      patientId: handoff.patient.id,
    });
    return handoff;
  }

  private async detail(ctx: ServiceContext, id: string, clock: HospitalClock, q: Queryable = this.app.db) {
    const res = await q.execute<HandoffRow>(
      sql`${HANDOFF_SELECT} where ho.id = ${id} and ho.hospital_id = ${scopedHospital(ctx).id}`,
    );
    const row = res.rows[0];
    if (!row) throw notFound();
    await this.care.plan(ctx, row.plan_id, q);
    return toHandoff(row, clock, actingUser(ctx).id, mayAct(ctx, 'care.write'));
  }

  /** The incoming nurse (anyone of the care team but the author) acknowledges, once. */
  async acknowledge(ctx: ServiceContext, id: string, note: string | null | undefined): Promise<THandoff> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, hospital.id);
    await this.app.db.transaction(async (tx) => {
      const res = await tx.execute<{
        plan_id: string;
        patient_id: string;
        author_id: string;
        acknowledged_at: Date | null;
      }>(
        sql`select plan_id, patient_id, author_id, acknowledged_at from care_handoffs
          where id = ${id} and hospital_id = ${hospital.id} for update`,
      );
      const row = res.rows[0];
      if (!row) throw notFound();
      await this.care.plan(ctx, row.plan_id, tx);
      if (row.author_id === me) throw forbidden('care.handoff_own');
      if (row.acknowledged_at) throw conflict('care.handoff_acknowledged');
      await tx.execute(sql`update care_handoffs set acknowledged_by = ${me}, acknowledged_at = ${now.toISOString()},
        acknowledge_note = ${note ?? null} where id = ${id}`);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.handoff_acknowledge',
          resourceType: 'care_handoff',
          resourceId: id,
          patientId: row.patient_id,
        },
        tx,
      );
    });
    return this.detail(ctx, id, clock);
  }

  /**
   * The handoffs tab: `to_give` (open plans of the caller's departments without a handoff this shift),
   * `to_acknowledge` (unacknowledged handoffs of the last two shifts written by someone else), `unacknowledged`
   * (all of them, the charge nurse's view), `all` (written in the current or previous shift).
   */
  async list(
    ctx: ServiceContext,
    q: {
      box: string;
      department?: string | undefined;
      ward?: string | undefined;
      page: number;
      page_size: number;
    },
  ): Promise<{ shift: TShift; count: number; rows: z.infer<typeof ZHandoffListItem>[] }> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, hospital.id);
    const shift = shiftOf(clock, now);
    const previous = shiftOf(clock, now, -1);
    const scope = [inScope(hospital.id, me, sql`d.id`)];
    if (q.department) scope.push(sql`d.id = ${q.department}`);
    if (q.ward) scope.push(sql`w.id = ${q.ward}`);
    const where = sql.join(scope, sql` and `);
    const limit = q.page_size;
    const offset = (q.page - 1) * q.page_size;
    await this.app.audit.record(ctx, {
      action: 'care.handoff_list',
      resourceType: 'care_handoff',
      details: { box: q.box, page: q.page },
    });
    if (q.box === 'to_give') {
      const base = sql`${PLAN_FROM} where cp.hospital_id = ${hospital.id} and ${where}
        and ${PLAN_IS_OPEN}
        and not exists (select 1 from care_handoffs h2 where h2.plan_id = cp.id and h2.shift_start = ${shift.start.toISOString()})`;
      const res = await this.app.db.execute<PlanRow>(
        sql`select ${PLAN_COLUMNS} ${base} order by w.name nulls last, b.label nulls last, cp.created_at
          limit ${limit} offset ${offset}`,
      );
      const counted = await this.app.db.execute<{ n: number }>(sql`select count(*)::int as n ${base}`);
      return {
        shift: shiftDto(clock, shift),
        count: Number(counted.rows[0]?.n ?? 0),
        rows: res.rows.map((p) => ({
          plan: p.plan_id,
          patient: patientRef(p),
          department: departmentRef(p),
          place: placeOf(p),
          handoff: null,
        })),
      };
    }
    // A handoff waits to be taken only while its patient is here: a discharge (or the visit's end) takes the
    // patient out of "À prendre" and of the charge nurse's unacknowledged list (issue 37).
    const box =
      q.box === 'to_acknowledge'
        ? sql`and ho.acknowledged_at is null and ho.author_id <> ${me} and ho.shift_start >= ${previous.start.toISOString()} and ${PLAN_IS_OPEN}`
        : q.box === 'unacknowledged'
          ? sql`and ho.acknowledged_at is null and ${PLAN_IS_OPEN}`
          : sql`and ho.shift_start >= ${previous.start.toISOString()}`;
    const res = await this.app.db.execute<HandoffRow>(
      sql`${HANDOFF_SELECT} where ho.hospital_id = ${hospital.id} and ${where} ${box}
        order by ho.shift_start desc, w.name nulls last, b.label nulls last, ho.written_at
        limit ${limit} offset ${offset}`,
    );
    const counted = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from (${HANDOFF_SELECT} where ho.hospital_id = ${hospital.id} and ${where} ${box}) t`,
    );
    const canWrite = mayAct(ctx, 'care.write');
    return {
      shift: shiftDto(clock, shift),
      count: Number(counted.rows[0]?.n ?? 0),
      rows: res.rows.map((r) => {
        const handoff = toHandoff(r, clock, me, canWrite);
        return {
          plan: handoff.plan,
          patient: handoff.patient,
          department: handoff.department,
          place: handoff.place,
          handoff,
        };
      }),
    };
  }
}

interface HandoffRow extends PlanRow {
  id: string;
  shift_start: Date | string;
  shift_end: Date | string;
  shift_label: string;
  situation: string;
  background: string;
  assessment: string;
  recommendation: string;
  changes: unknown;
  author_id: string;
  au_first: string;
  au_last: string;
  written_at: Date | string;
  acknowledged_by: string | null;
  ak_first: string | null;
  ak_last: string | null;
  acknowledged_at: Date | string | null;
  acknowledge_note: string | null;
}

function toHandoff(r: HandoffRow, clock: HospitalClock, me: string, canWrite: boolean): THandoff {
  return {
    id: r.id,
    plan: r.plan_id,
    patient: patientRef(r),
    department: departmentRef(r),
    place: placeOf(r),
    shift: {
      start: isoRequired(r.shift_start),
      end: isoRequired(r.shift_end),
      label: r.shift_label,
      time_zone: clock.timeZone,
    },
    situation: r.situation,
    background: r.background,
    assessment: r.assessment,
    recommendation: r.recommendation,
    changes: parseJson<Change[]>(r.changes) ?? [],
    author: { id: r.author_id, full_name: fullName(r.au_first, r.au_last) },
    written_at: isoRequired(r.written_at),
    acknowledged_by: personOf(r.acknowledged_by, r.ak_first, r.ak_last),
    acknowledged_at: iso(r.acknowledged_at),
    acknowledge_note: r.acknowledge_note,
    can: { acknowledge: canWrite && !r.acknowledged_at && r.author_id !== me },
  };
}
