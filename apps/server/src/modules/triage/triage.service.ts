import { OPEN_ADMISSION_STATUSES } from '@greensen/shared/domain/admissions';
import {
  isLevelOf,
  levelRank,
  suggestTriageLevel,
  TARGET_MINUTES,
  type Vitals,
} from '@greensen/shared/domain/triage';
import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { birthDateOf, news2Of } from '../care/vital-signs.repository.js';
import {
  findTriage,
  hospitalScale,
  insertTriage,
  listTriage,
  lockVisitToTriage,
  recordVisitTriage,
  waitingRoom,
} from './triage.repository.js';

export interface TriageInput {
  admission: string;
  vitals: Vitals;
  chief_complaint: string;
  discriminators: string[];
  level?: string | null | undefined;
  override_reason?: string | null | undefined;
  notes?: string | null | undefined;
}

export class TriageService {
  constructor(private readonly app: FastifyInstance) {}

  async suggest(ctx: ServiceContext, vitals: Vitals, discriminators: string[]) {
    const scale = await hospitalScale(this.app.db, scopedHospital(ctx).id);
    const s = suggestTriageLevel(scale, vitals, discriminators);
    return {
      scale,
      level: s.level,
      target_minutes: TARGET_MINUTES[s.level],
      tews: s.scale === 'SATS' ? s.tews : null,
      reasons: s.reasons,
    };
  }

  /**
   * Records a triage on the hospital's scale: the suggested level is computed from the vitals; the nurse's
   * level (absent = the suggestion) is kept beside it, with the reason when it differs. The visit then takes
   * the level, which orders every queue.
   */
  async create(ctx: ServiceContext, input: TriageInput) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const admission = await lockVisitToTriage(tx, hospital.id, input.admission);
      if (!admission) throw badRequest({ admission: ['triage.admission_unknown'] });
      if (!OPEN_ADMISSION_STATUSES.includes(admission.status)) throw conflict('admissions.closed');
      const scale = await hospitalScale(tx, hospital.id);
      const suggestion = suggestTriageLevel(scale, input.vitals, input.discriminators);
      const level = input.level ?? suggestion.level;
      if (!isLevelOf(scale, level)) throw badRequest({ level: ['triage.level_invalid'] });
      if (level !== suggestion.level && !input.override_reason)
        throw badRequest({ override_reason: ['triage.override_reason_required'] });
      const rank = levelRank(scale, level);
      const target = TARGET_MINUTES[level];
      const v = input.vitals;
      const news2 = news2Of(v, await birthDateOf(tx, admission.patientId));
      const id = await insertTriage(tx, {
        hospitalId: hospital.id,
        admissionId: admission.id,
        patientId: admission.patientId,
        scale,
        temperature: v.temperature ?? null,
        heartRate: v.heart_rate ?? null,
        respiratoryRate: v.respiratory_rate ?? null,
        systolicBp: v.systolic_bp ?? null,
        diastolicBp: v.diastolic_bp ?? null,
        spo2: v.spo2 ?? null,
        weight: v.weight ?? null,
        height: v.height ?? null,
        glycaemia: v.glycaemia ?? null,
        pain: v.pain ?? null,
        gcs: v.gcs ?? null,
        avpu: v.avpu ?? null,
        confused: v.confused ?? null,
        mobility: v.mobility ?? null,
        trauma: v.trauma ?? null,
        chiefComplaint: input.chief_complaint,
        discriminators: input.discriminators,
        tews: suggestion.scale === 'SATS' ? suggestion.tews : null,
        suggestedLevel: suggestion.level,
        suggestionReasons: suggestion.reasons,
        level,
        levelRank: rank,
        overrideReason: level !== suggestion.level ? (input.override_reason ?? null) : null,
        targetMinutes: target,
        notes: input.notes ?? null,
        news2Score: news2?.score ?? null,
        news2: news2 ? { ...news2 } : null,
        recordedBy: actingUser(ctx).id,
      });
      await recordVisitTriage(tx, admission.id, { triageId: id, level, rank, target });
      await this.app.audit.record(
        ctx,
        {
          action: 'triage.create',
          resourceType: 'triage',
          resourceId: id,
          patientId: admission.patientId,
          details: { admission: admission.id, scale, level, suggested_level: suggestion.level },
        },
        tx,
      );
      return (await findTriage(tx, hospital.id, id))!;
    });
  }

  async get(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const view = await findTriage(tx, hospital.id, id);
      if (!view) throw notFound();
      await this.app.audit.record(
        ctx,
        { action: 'triage.read', resourceType: 'triage', resourceId: id, patientId: view.patient.id },
        tx,
      );
      return view;
    });
  }

  async list(
    ctx: ServiceContext,
    f: { admission?: string | undefined; patient?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const result = await listTriage(tx, hospital.id, f, pageSize, (page - 1) * pageSize);
      await this.app.audit.record(
        ctx,
        {
          action: 'triage.list',
          resourceType: 'triage',
          ...(f.patient ? { patientId: f.patient } : {}),
          details: { ...f, page },
        },
        tx,
      );
      return result;
    });
  }

  async waitingRoom(ctx: ServiceContext, department: string | undefined, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const scale = await hospitalScale(this.app.db, hospital.id);
    const result = await waitingRoom(this.app.db, hospital.id, department, pageSize, (page - 1) * pageSize);
    // The waiting room lists patients (names, complaints): a read of patient data, audited.
    await this.app.audit.record(ctx, {
      action: 'triage.waiting_room',
      resourceType: 'admission',
      details: { department: department ?? null, page, results: result.rows.length },
    });
    return { scale, ...result };
  }
}
