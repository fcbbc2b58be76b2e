import type {
  THandoff,
  THandoffCreate,
  THandoffDraft,
  TShift,
  ZHandoffListItem,
} from '@greensen/shared/contracts/care';
import type { News2Result } from '@greensen/shared/domain/news2';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { departmentRef, fullName, iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { type HospitalClock, hospitalClock, shiftDto, shiftOf } from './care.context.js';
import { type PlanRow, parseJson, personOf, placeOf } from './care.repository.js';
import type { CareService } from './care.service.js';
import {
  dosesNotGivenIn,
  executionsNotDoneIn,
  findHandoff,
  type HandoffBox,
  type HandoffRow,
  handoffOfShift,
  handoffPage,
  insertHandoff,
  lockHandoff,
  markHandoffAcknowledged,
  openPlansWithoutHandoff,
  openTasksBefore,
  ordersGivenIn,
  planReason,
  resultsValidatedIn,
  vitalsRecordedIn,
} from './handoffs.repository.js';

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

/** SBAR shift handoffs (issue 20): pre-filled, written by the outgoing nurse, acknowledged by another. */
export class HandoffService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {}

  /** What changed for a plan in `[from, to)`, oldest first, in the caller's language. */
  async changes(q: Queryable, plan: PlanRow, from: Date, to: Date, lang: Lang): Promise<Change[]> {
    const t = T[lang];
    // One after the other: `q` may be a transaction (one connection).
    const vitals = await vitalsRecordedIn(q, plan.plan_id, from, to);
    const doses = await dosesNotGivenIn(q, plan.plan_id, from, to);
    const orders = await ordersGivenIn(q, plan.plan_id, from, to);
    const notDone = await executionsNotDoneIn(q, plan.plan_id, from, to);
    const results = await resultsValidatedIn(q, plan.p_id, from, to);
    const out: Change[] = [];
    for (const v of vitals) {
      const n = parseJson<News2Result>(v.news2);
      if (!n) continue;
      if (n.escalation !== 'none')
        out.push({ kind: 'news2', at: isoRequired(v.recorded_at), text: t.news2(n.score, n.risk) });
      else if (Object.values(n.breakdown).some((p) => (p ?? 0) >= 2))
        out.push({ kind: 'vitals', at: isoRequired(v.recorded_at), text: `${t.vitals} (NEWS2 ${n.score})` });
    }
    for (const d of doses)
      out.push({
        kind: 'dose_not_given',
        at: isoRequired(d.scheduled_at),
        text: t.notGiven(lang === 'fr' ? d.inn_fr : d.inn_en, d.reason),
      });
    for (const o of orders)
      out.push({ kind: 'new_order', at: isoRequired(o.ordered_at), text: t.order(o.title) });
    for (const x of notDone)
      out.push({
        kind: 'execution_not_done',
        at: isoRequired(x.recorded_at),
        text: t.notDone(x.title, x.not_done_reason),
      });
    for (const r of results)
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
      planReason(this.app.db, planId),
      openTasksBefore(this.app.db, planId, shiftOf(clock, now, 1).end),
      handoffOfShift(this.app.db, planId, shift.start),
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
      background: t.background(reason ?? '', patient.allergies.join(', ')),
      assessment: changes.length > 0 ? changes.map((c) => `${time(c.at)} ${c.text}`).join('\n') : t.noChange,
      recommendation: open
        .map((o) =>
          `${t.todo} : ${o.title} (${time(isoRequired(o.scheduled_at))})`.replace(
            ' : ',
            ctx.lang === 'fr' ? ' : ' : ': ',
          ),
        )
        .join('\n'),
      changes,
      existing,
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
        const id = await insertHandoff(tx, {
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
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'care.handoff_create',
            resourceType: 'care_handoff',
            resourceId: id,
            patientId: plan.p_id,
            details: { plan: body.plan, shift: shift.start.toISOString() },
          },
          tx,
        );
        return id;
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
    const row = await findHandoff(q, scopedHospital(ctx).id, id);
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
      const row = await lockHandoff(tx, hospital.id, id);
      if (!row) throw notFound();
      await this.care.plan(ctx, row.plan_id, tx);
      if (row.author_id === me) throw forbidden('care.handoff_own');
      if (row.acknowledged_at) throw conflict('care.handoff_acknowledged');
      await markHandoffAcknowledged(tx, id, me, now, note ?? null);
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
    const scope = { hospitalId: hospital.id, userId: me, department: q.department, ward: q.ward };
    const limit = q.page_size;
    const offset = (q.page - 1) * q.page_size;
    await this.app.audit.record(ctx, {
      action: 'care.handoff_list',
      resourceType: 'care_handoff',
      details: { box: q.box, page: q.page },
    });
    if (q.box === 'to_give') {
      const { rows, count } = await openPlansWithoutHandoff(this.app.db, scope, shift.start, limit, offset);
      return {
        shift: shiftDto(clock, shift),
        count,
        rows: rows.map((p) => ({
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
    const box: HandoffBox =
      q.box === 'to_acknowledge'
        ? { box: 'to_acknowledge', me, since: previous.start }
        : q.box === 'unacknowledged'
          ? { box: 'unacknowledged' }
          : { box: 'all', since: previous.start };
    const { rows, count } = await handoffPage(this.app.db, scope, box, limit, offset);
    const canWrite = mayAct(ctx, 'care.write');
    return {
      shift: shiftDto(clock, shift),
      count,
      rows: rows.map((r) => {
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
