import type {
  BedGuardrail,
  TBedBoard,
  TBedCheck,
  TBoardBed,
  TCensus,
  TDischargeCreate,
  THospitalizationCreate,
  THospitalizationDetail,
  THospitalizationUpdate,
  TProgressNote,
} from '@greensen/shared/contracts/hospitalizations';
import { ZBedBoard } from '@greensen/shared/contracts/hospitalizations';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import {
  admissions,
  bedAssignments,
  beds,
  hospitalizations,
  patients,
  progressNotes,
} from '../../db/schema/index.js';
import { ageOf, fullName, isoRequired, personRef } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { type PreSerialized, preSerialize } from '../../lib/pre-serialized.js';
import { hospitalToday } from '../../lib/queries.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { listWards } from '../structure/structure.repository.js';
import {
  bedForStay,
  boardWards,
  completeVisitOfStay,
  findStay,
  findStayForPlacement,
  icdLabels,
  type LockedBed,
  type LockedStay,
  listStays,
  lockBedForStay,
  lockStay,
  nursePatients,
  openTransferCount,
  roomNeighbourSexes,
  type StayFilters,
  stayExtras,
  wardNurses,
} from './hospitalizations.repository.js';
import { stayOrders } from './stay-orders.repository.js';

const OPEN = ['pending_bed', 'admitted'];
const PRACTITIONER_ROLES = ['DOCTOR', 'PHYSICIAN', 'MD', 'HEAD_DOCTOR', 'SAGE_FEMME'];

/** The message of a notification, in both languages, with the patient and the place. */
type Texts = { fr: string; en: string };

/** The roles whose patients `GET /api/nurses/{id}/patients/` lists. */
const NURSE_ROLES = new Set(['NURSE', 'CHARGE_NURSE']);

/**
 * Inpatient stays (issue 17): a stay is opened from a visit (by a doctor, or by completing a consultation with
 * the outcome "hospitalize"), waits for a bed, lies in one bed at a time, is transferred or discharged. The
 * rules that protect patients are database constraints (schema/inpatient.ts); the code checks them first to
 * answer with a clear message, and maps a constraint that fires under a race to the same 409.
 */
export class HospitalizationService {
  constructor(private readonly app: FastifyInstance) {}

  // Reads -----------------------------------------------------------------------------------------------

  async list(ctx: ServiceContext, filters: StayFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const result = await listStays(
      this.app.db,
      hospital.id,
      filters,
      ctx.lang,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, {
      action: 'hospitalization.list',
      resourceType: 'hospitalization',
      ...(filters.patient ? { patientId: filters.patient } : {}),
      details: { filters: { ...filters }, page, results: result.rows.length },
    });
    return result;
  }

  async detail(ctx: ServiceContext, id: string, q: Queryable = this.app.db): Promise<THospitalizationDetail> {
    const hospital = scopedHospital(ctx);
    const stay = await findStay(q, hospital.id, id, ctx.lang);
    if (!stay) throw notFound();
    const extras = await stayExtras(q, id, ctx.lang);
    const orders = await stayOrders(q, hospital.id, id, ctx.lang);
    const open = OPEN.includes(stay.status);
    return {
      ...stay,
      ...extras,
      orders,
      can: {
        edit: open && mayAct(ctx, 'hospitalization.admit'),
        assign_bed: open && mayAct(ctx, 'hospitalization.bed'),
        note: mayAct(ctx, 'hospitalization.note'),
        discharge: open && mayAct(ctx, 'hospitalization.discharge'),
      },
    };
  }

  async read(ctx: ServiceContext, id: string) {
    const detail = await this.detail(ctx, id);
    await this.app.audit.record(ctx, {
      action: 'hospitalization.read',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: detail.patient.id,
    });
    return detail;
  }

  /**
   * The bed board, kept per hospital, filters and language until a change notice of the tables it reads drops it
   * (plugins/board-cache.ts), or a minute has passed (so the days of each stay turn at midnight within a minute).
   * Every read is audited, kept or not.
   */
  async board(
    ctx: ServiceContext,
    filters: { ward?: string | undefined; department?: string | undefined },
  ): Promise<PreSerialized> {
    const hospital = scopedHospital(ctx);
    const cache = this.app.boardCache;
    const key = `${filters.ward ?? ''}/${filters.department ?? ''}/${ctx.lang}`;
    let kept = cache.lookup(hospital.id, key);
    if (!kept) {
      const ticket = cache.ticket();
      // Two independent reads, side by side on PostgreSQL's pool (the embedded engine runs them in turn).
      const [wards, pending] = await Promise.all([
        boardWards(this.app.db, hospital.id, filters, ctx.lang),
        listStays(
          this.app.db,
          hospital.id,
          { status: 'pending_bed', department: filters.department },
          ctx.lang,
          200,
          0,
        ),
      ]);
      const board: TBedBoard = {
        wards,
        pending: [...pending.rows].sort((a, b) => a.requested_at.localeCompare(b.requested_at)),
        pending_count: pending.count,
      };
      kept = { answer: preSerialize(ZBedBoard, board), wards: wards.length, pending: pending.count };
      cache.keep(ticket, hospital.id, key, kept);
    }
    await this.app.audit.record(ctx, {
      action: 'hospitalization.board',
      resourceType: 'hospitalization',
      details: { filters: { ...filters }, wards: kept.wards, pending: kept.pending },
    });
    return kept.answer;
  }

  async census(ctx: ServiceContext): Promise<TCensus> {
    const hospital = scopedHospital(ctx);
    const { rows } = await listWards(this.app.db, hospital.id, {}, 1000, 0);
    const pending = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from hospitalizations where hospital_id = ${hospital.id} and status = 'pending_bed'`,
    );
    const rate = (b: { total: number; occupied: number; out_of_service: number }) => {
      const inService = b.total - b.out_of_service;
      return inService > 0 ? Math.round((b.occupied / inService) * 1000) / 1000 : null;
    };
    const totals = { total: 0, free: 0, occupied: 0, cleaning: 0, out_of_service: 0 };
    for (const w of rows)
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += w.beds[k];
    return {
      wards: rows.map((w) => ({
        id: w.id,
        code: w.code,
        name: w.name,
        department: w.department,
        beds: w.beds,
        occupancy_rate: rate(w.beds),
      })),
      totals: { ...totals, occupancy_rate: rate(totals), pending: Number(pending.rows[0]?.n ?? 0) },
    };
  }

  // Admission ---------------------------------------------------------------------------------------------

  private async checkDepartment(q: Queryable, hospitalId: string, id: string, field = 'department') {
    const res = await q.execute<{ is_active: boolean }>(
      sql`select is_active from departments where id = ${id} and hospital_id = ${hospitalId}`,
    );
    if (!res.rows[0]) throw badRequest({ [field]: ['hospitalizations.department_unknown'] });
    if (!res.rows[0].is_active) throw badRequest({ [field]: ['hospitalizations.department_inactive'] });
  }

  private async checkDoctor(q: Queryable, hospitalId: string, id: string) {
    const res = await q.execute<{ n: number }>(
      sql`select count(*)::int as n from memberships m join users u on u.id = m.user_id
        where m.hospital_id = ${hospitalId} and m.user_id = ${id} and m.is_active and u.is_active
          and upper(m.role_code) in (${sql.join(
            PRACTITIONER_ROLES.map((r) => sql`${r}`),
            sql`, `,
          )})`,
    );
    if (Number(res.rows[0]?.n ?? 0) === 0) throw badRequest({ doctor: ['hospitalizations.doctor_unknown'] });
  }

  private async checkCodes(q: Queryable, field: string, codes: readonly string[]) {
    const known = await icdLabels(q, codes, 'en');
    if (codes.some((c) => !known.has(c))) throw badRequest({ [field]: ['hospitalizations.icd_unknown'] });
  }

  /** A doctor admits a patient from an open visit (the visit becomes `hospitalized`). */
  async create(ctx: ServiceContext, body: THospitalizationCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await withNotifications(this.app, async (tx, notify) => {
      const [admission] = await tx
        .select({ id: admissions.id, patientId: admissions.patientId, status: admissions.status })
        .from(admissions)
        .where(and(eq(admissions.id, body.admission), eq(admissions.hospitalId, hospital.id)))
        .for('update');
      if (!admission) throw badRequest({ admission: ['hospitalizations.admission_unknown'] });
      if (['completed', 'cancelled', 'transferred'].includes(admission.status))
        throw conflict('hospitalizations.admission_closed');
      await this.checkDepartment(tx, hospital.id, body.department);
      const doctor = body.doctor ?? me;
      if (body.doctor) await this.checkDoctor(tx, hospital.id, body.doctor);
      if (body.provisional_icd_code)
        await this.checkCodes(tx, 'provisional_icd_code', [body.provisional_icd_code]);
      const stayId = await this.open(tx, ctx, notify, {
        patientId: admission.patientId,
        admissionId: admission.id,
        consultationId: null,
        departmentId: body.department,
        doctorId: doctor,
        reason: body.reason,
        icdCode: body.provisional_icd_code ?? null,
        expectedDays: body.expected_days ?? null,
      });
      if (!stayId) throw conflict('hospitalizations.already_open');
      if (admission.status !== 'hospitalized') {
        const now = new Date();
        await tx
          .update(admissions)
          .set({ status: 'hospitalized', closedAt: now, updatedAt: now })
          .where(eq(admissions.id, admission.id));
      }
      return stayId;
    });
    return this.detail(ctx, id);
  }

  /**
   * Opens a stay waiting for a bed (in the caller's transaction), audits it and tells the department's nurses.
   * Returns null when the patient already has an open stay (nothing is written then).
   */
  async open(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    input: {
      patientId: string;
      admissionId: string | null;
      consultationId: string | null;
      departmentId: string;
      doctorId: string;
      reason: string;
      icdCode: string | null;
      expectedDays: number | null;
    },
  ): Promise<string | null> {
    const hospital = scopedHospital(ctx);
    const [patient] = await tx
      .select({ first: patients.firstName, last: patients.lastName, deceasedAt: patients.deceasedAt })
      .from(patients)
      .where(and(eq(patients.id, input.patientId), eq(patients.hospitalId, hospital.id)));
    if (!patient) throw notFound();
    if (patient.deceasedAt) throw conflict('hospitalizations.patient_deceased');
    const rows = await tx
      .insert(hospitalizations)
      .values({
        hospitalId: hospital.id,
        patientId: input.patientId,
        admissionId: input.admissionId,
        consultationId: input.consultationId,
        departmentId: input.departmentId,
        doctorId: input.doctorId,
        reason: input.reason,
        provisionalIcdCode: input.icdCode,
        expectedDays: input.expectedDays,
        createdBy: ctx.user?.id ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: hospitalizations.id });
    const stayId = rows[0]?.id;
    if (!stayId) return null;
    await this.app.audit.record(
      ctx,
      {
        action: 'hospitalization.create',
        resourceType: 'hospitalization',
        resourceId: stayId,
        patientId: input.patientId,
        details: {
          admission: input.admissionId,
          consultation: input.consultationId,
          department: input.departmentId,
        },
      },
      tx,
    );
    const name = fullName(patient.first, patient.last);
    await this.tell(ctx, notify, {
      recipients: await wardNurses(tx, hospital.id, input.departmentId),
      type: 'hospitalization',
      title: { fr: 'Patient en attente de lit', en: 'Patient waiting for a bed' },
      message: {
        fr: `${name} est hospitalisé(e) et attend un lit.`,
        en: `${name} is admitted and waiting for a bed.`,
      },
      data: { action: 'hospitalization_pending', hospitalization: stayId, patient: input.patientId },
    });
    return stayId;
  }

  private async tell(
    ctx: ServiceContext,
    notify: Notify,
    n: {
      recipients: string[];
      type: 'hospitalization' | 'bed_assignment' | 'transfer';
      title: Texts;
      message: Texts;
      data: Record<string, unknown>;
      hospitalId?: string;
    },
  ) {
    const me = ctx.user?.id ?? null;
    const recipients = n.recipients.filter((r) => r !== me);
    if (recipients.length === 0) return;
    await notify({
      hospitalId: n.hospitalId ?? scopedHospital(ctx).id,
      recipients,
      type: n.type,
      title: n.title,
      message: n.message,
      data: n.data,
      initiatedBy: me,
    });
  }

  async update(ctx: ServiceContext, id: string, body: THospitalizationUpdate) {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!OPEN.includes(stay.status)) throw conflict('hospitalizations.closed');
      if (body.department) await this.checkDepartment(tx, hospital.id, body.department);
      if (body.doctor) await this.checkDoctor(tx, hospital.id, body.doctor);
      if (body.provisional_icd_code)
        await this.checkCodes(tx, 'provisional_icd_code', [body.provisional_icd_code]);
      const values: Partial<typeof hospitalizations.$inferInsert> = { updatedAt: new Date() };
      if (body.department !== undefined) values.departmentId = body.department;
      if (body.doctor !== undefined) values.doctorId = body.doctor;
      if (body.reason !== undefined) values.reason = body.reason;
      if (body.provisional_icd_code !== undefined) values.provisionalIcdCode = body.provisional_icd_code;
      if (body.expected_days !== undefined) values.expectedDays = body.expected_days;
      await tx.update(hospitalizations).set(values).where(eq(hospitalizations.id, id));
      await this.app.audit.record(
        ctx,
        {
          action: 'hospitalization.update',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { fields: Object.keys(body) },
        },
        tx,
      );
    });
    return this.detail(ctx, id);
  }

  // Beds --------------------------------------------------------------------------------------------------

  /**
   * Puts a stay in a bed, or moves it to another one (the previous bed goes to cleaning). The bed row is locked
   * first, so that of two nurses assigning one bed the second sees it occupied (409); the partial unique
   * indexes of `bed_assignments` and `hospitalizations` hold it even without the lock.
   */
  async assignBed(ctx: ServiceContext, id: string, bedId: string, overrideReason?: string | null) {
    const hospital = scopedHospital(ctx);
    await withNotifications(this.app, async (tx, notify) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!OPEN.includes(stay.status)) throw conflict('hospitalizations.closed');
      const bed = await this.placeIn(tx, ctx, stay, bedId, null, overrideReason ?? null);
      await this.app.audit.record(
        ctx,
        {
          action: stay.bed_id ? 'hospitalization.bed_move' : 'hospitalization.bed_assign',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: {
            bed: bedId,
            from: stay.bed_id,
            ...(bed.overridden.length > 0
              ? { overridden: bed.overridden, override_reason: overrideReason ?? null }
              : {}),
          },
        },
        tx,
      );
      await this.tellBed(tx, ctx, notify, stay, bed);
    });
    return this.detail(ctx, id);
  }

  /**
   * What placing the stay's patient in `bedId` would break (the bed board asks before every placement, issue 37),
   * in the caller's language, and whether the caller may override. Reads only.
   */
  async checkBed(ctx: ServiceContext, id: string, bedId: string): Promise<TBedCheck> {
    const hospital = scopedHospital(ctx);
    const stay = await findStayForPlacement(this.app.db, hospital.id, id);
    if (!stay) throw notFound();
    const bed = await bedForStay(this.app.db, hospital.id, bedId);
    if (!bed?.usable) throw badRequest({ bed: ['hospitalizations.bed_unknown'] });
    const broken = await this.guardrailsOf(this.app.db, stay, bed, null);
    await this.app.audit.record(ctx, {
      action: 'hospitalization.bed_check',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: stay.patient_id,
      details: { bed: bedId, guardrails: broken.map((g) => g.code) },
    });
    return {
      bed: bedId,
      guardrails: broken.map((g) => ({ code: g.code, message: translate(ctx.lang, g.key, g.params) })),
      may_override: this.mayOverride(ctx),
    };
  }

  private mayOverride(ctx: ServiceContext) {
    return mayAct(ctx, 'hospitalization.bed_override');
  }

  /**
   * The placement guardrails (issue 37, decision 0069), the one place they are decided: the ward's sex and ages,
   * the bed in the stay's department (or the transfer's), and no patient of the other sex in the room.
   */
  private async guardrailsOf(
    q: Queryable,
    stay: Pick<LockedStay, 'id' | 'department_id' | 'patient_sex' | 'patient_birth_date'>,
    bed: LockedBed,
    within: { department?: string; ward?: string } | null,
  ): Promise<{ code: BedGuardrail; key: string; params: Record<string, string | number> }[]> {
    const out: { code: BedGuardrail; key: string; params: Record<string, string | number> }[] = [];
    if (bed.sex_restriction && bed.sex_restriction !== stay.patient_sex)
      out.push({
        code: 'ward_sex',
        key: `hospitalizations.guardrail.ward_sex_${bed.sex_restriction}`,
        params: { ward: bed.ward_name },
      });
    const age = ageOf(stay.patient_birth_date);
    if (
      age !== null &&
      ((bed.min_age !== null && age < bed.min_age) || (bed.max_age !== null && age > bed.max_age))
    )
      out.push({
        code: 'ward_age',
        key: 'hospitalizations.guardrail.ward_age',
        params: { ward: bed.ward_name, age, min: bed.min_age ?? 0, max: bed.max_age ?? 120 },
      });
    // A transfer's bed is checked against its destination by `within` (placeIn).
    if (!within && bed.department_id !== stay.department_id)
      out.push({
        code: 'ward_department',
        key: 'hospitalizations.guardrail.ward_department',
        params: { ward: bed.ward_name, department: bed.department_name },
      });
    const neighbours = await roomNeighbourSexes(q, bed.room_id, stay.id);
    if (neighbours.some((sex) => sex !== stay.patient_sex))
      out.push({ code: 'room_mixed_sex', key: 'hospitalizations.guardrail.room_mixed_sex', params: {} });
    return out;
  }

  /** Tells the ward's nurses and the doctor in charge that a patient has a bed. */
  private async tellBed(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    stay: LockedStay,
    bed: { label: string; department_id: string; ward_name: string },
  ) {
    const hospital = scopedHospital(ctx);
    const [p] = await tx
      .select({ first: patients.firstName, last: patients.lastName })
      .from(patients)
      .where(eq(patients.id, stay.patient_id));
    const name = fullName(p?.first, p?.last);
    await this.tell(ctx, notify, {
      recipients: [...(await wardNurses(tx, hospital.id, bed.department_id)), stay.doctor_id],
      type: 'bed_assignment',
      title: { fr: 'Lit attribué', en: 'Bed assigned' },
      message: {
        fr: `${name} : lit ${bed.label}, ${bed.ward_name}.`,
        en: `${name}: bed ${bed.label}, ${bed.ward_name}.`,
      },
      data: { action: 'bed_assigned', hospitalization: stay.id, patient: stay.patient_id, bed: bed.label },
    });
  }

  /**
   * The move itself, in the caller's transaction: checks the bed (free, usable, within `within` when given), its
   * guardrails (refused with them listed unless a charge nurse gives a reason: then kept with the placement),
   * closes the current assignment, opens the new one.
   */
  private async placeIn(
    tx: Tx,
    ctx: ServiceContext,
    stay: LockedStay,
    bedId: string,
    within: { department?: string; ward?: string } | null,
    overrideReason: string | null = null,
  ) {
    const hospital = scopedHospital(ctx);
    const me = ctx.user?.id ?? null;
    const bed = await lockBedForStay(tx, hospital.id, bedId);
    if (!bed?.usable) throw badRequest({ bed: ['hospitalizations.bed_unknown'] });
    if (within?.ward && bed.ward_id !== within.ward) throw badRequest({ bed: ['transfers.bed_elsewhere'] });
    if (within?.department && bed.department_id !== within.department)
      throw badRequest({ bed: ['transfers.bed_elsewhere'] });
    if (stay.bed_id === bed.id) throw conflict('hospitalizations.same_bed');
    if (bed.status === 'occupied') throw conflict('hospitalizations.bed_taken');
    if (bed.status !== 'free') throw conflict('hospitalizations.bed_unavailable');
    const broken = await this.guardrailsOf(tx, stay, bed, within);
    if (broken.length > 0 && overrideReason !== null && !this.mayOverride(ctx))
      throw forbidden('hospitalizations.override_forbidden');
    if (broken.length > 0 && overrideReason === null) {
      const guardrails = broken.map((g) => ({ code: g.code, message: translate(ctx.lang, g.key, g.params) }));
      throw new ApiError(409, guardrails.map((g) => g.message).join(' '), {
        code: 'bed_guardrails',
        body: { guardrails, may_override: this.mayOverride(ctx) },
      });
    }
    const overridden = broken.map((g) => g.code);
    const now = new Date();
    try {
      if (stay.bed_id) await this.leaveBed(tx, stay, now);
      await tx.insert(bedAssignments).values({
        hospitalId: hospital.id,
        hospitalizationId: stay.id,
        bedId: bed.id,
        startedAt: now,
        assignedBy: me,
        overridden,
        overrideReason: overridden.length > 0 ? overrideReason : null,
      });
      await tx
        .update(hospitalizations)
        .set({
          bedId: bed.id,
          status: 'admitted',
          admittedAt: sql`coalesce(${hospitalizations.admittedAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(eq(hospitalizations.id, stay.id));
      await tx
        .update(beds)
        .set({ status: 'occupied', statusReason: null, updatedAt: now })
        .where(eq(beds.id, bed.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('hospitalizations.bed_taken');
      throw error;
    }
    return {
      label: bed.label,
      department_id: bed.department_id,
      ward_name: bed.ward_name,
      overridden,
    };
  }

  /**
   * Ends the stay's current bed: the assignment closes, the bed goes to cleaning. The caller sets the stay's
   * new bed or state in the same statement as clearing `bed_id` (`hospitalizations_bed_state_ck`).
   */
  private async leaveBed(tx: Tx, stay: LockedStay, now: Date) {
    if (!stay.bed_id) return;
    await tx
      .update(bedAssignments)
      .set({ endedAt: now })
      .where(and(eq(bedAssignments.hospitalizationId, stay.id), isNull(bedAssignments.endedAt)));
    await tx.update(beds).set({ status: 'cleaning', updatedAt: now }).where(eq(beds.id, stay.bed_id));
  }

  /** Housekeeping: a freed bed is cleaned (`cleaning`), then `free`; an occupied or out-of-service bed is not. */
  async housekeeping(ctx: ServiceContext, bedId: string, status: 'free' | 'cleaning'): Promise<TBoardBed> {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const bed = await lockBedForStay(tx, hospital.id, bedId);
      if (!bed) throw notFound();
      const from = status === 'free' ? 'cleaning' : 'free';
      if (bed.status !== from) throw conflict(`hospitalizations.bed_not_${from}`);
      const [row] = await tx
        .update(beds)
        .set({ status, updatedAt: new Date() })
        .where(eq(beds.id, bedId))
        .returning({ id: beds.id, label: beds.label, status: beds.status, reason: beds.statusReason });
      await this.app.audit.record(
        ctx,
        { action: 'bed.housekeeping', resourceType: 'bed', resourceId: bedId, details: { from, to: status } },
        tx,
      );
      return {
        id: row!.id,
        label: row!.label,
        status: row!.status,
        status_reason: row!.reason,
        occupant: null,
      };
    });
  }

  // Discharge ---------------------------------------------------------------------------------------------

  async discharge(ctx: ServiceContext, id: string, body: TDischargeCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!OPEN.includes(stay.status)) throw conflict('hospitalizations.closed');
      if ((await openTransferCount(tx, id)) > 0) throw conflict('hospitalizations.transfer_open');
      const diagnoses = [...new Set(body.diagnoses)];
      await this.checkCodes(tx, 'diagnoses', diagnoses);
      if (body.death_cause_icd_code)
        await this.checkCodes(tx, 'death_cause_icd_code', [body.death_cause_icd_code]);
      const now = new Date();
      if (body.follow_up_date && body.follow_up_date < (await hospitalToday(tx, hospital.id)))
        throw badRequest({ follow_up_date: ['hospitalizations.follow_up_past'] });
      if (body.death_at) {
        const death = new Date(body.death_at);
        if (
          death.getTime() > now.getTime() + 60_000 ||
          death.getTime() < new Date(stay.requested_at).getTime()
        )
          throw badRequest({ death_at: ['hospitalizations.death_time_range'] });
      }
      const bedDepartment = stay.bed_id
        ? ((await lockBedForStay(tx, hospital.id, stay.bed_id))?.department_id ?? stay.department_id)
        : stay.department_id;
      await this.leaveBed(tx, stay, now);
      const status =
        body.mode === 'deceased'
          ? 'deceased'
          : body.mode === 'transferred'
            ? 'transferred_out'
            : 'discharged';
      await tx
        .update(hospitalizations)
        .set({
          status,
          bedId: null,
          endedAt: now,
          dischargeMode: body.mode,
          dischargeIcdCodes: diagnoses,
          dischargeSummary: body.summary,
          dischargeTreatments: body.treatments ?? null,
          followUpDate: body.follow_up_date ?? null,
          deathAt: body.death_at ? new Date(body.death_at) : null,
          deathIcdCode: body.death_cause_icd_code ?? null,
          dischargedBy: me,
          updatedAt: now,
        })
        .where(eq(hospitalizations.id, id));
      // The visit the stay came from ends with it: every screen reading the visit says the patient left.
      await completeVisitOfStay(tx, id, now);
      if (body.mode === 'deceased')
        await tx
          .update(patients)
          .set({ deceasedAt: new Date(body.death_at!), updatedAt: now })
          .where(eq(patients.id, stay.patient_id));
      await this.app.audit.record(
        ctx,
        {
          action: 'hospitalization.discharge',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { mode: body.mode, bed: stay.bed_id },
        },
        tx,
      );
      if (stay.bed_id)
        await this.tell(ctx, notify, {
          recipients: await wardNurses(tx, hospital.id, bedDepartment),
          type: 'hospitalization',
          title: { fr: 'Sortie : lit à nettoyer', en: 'Discharge: bed to clean' },
          message: {
            fr: 'Un patient est sorti ; son lit est à nettoyer.',
            en: 'A patient was discharged; the bed needs cleaning.',
          },
          data: {
            action: 'hospitalization_discharged',
            hospitalization: id,
            patient: stay.patient_id,
            bed: stay.bed_id,
          },
        });
    });
    return this.detail(ctx, id);
  }

  // Progress notes ------------------------------------------------------------------------------------------

  async notes(ctx: ServiceContext, id: string, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const stay = await findStay(this.app.db, hospital.id, id, ctx.lang);
    if (!stay) throw notFound();
    const where = sql`n.hospitalization_id = ${id} and n.addendum_of is null`;
    const notes = await this.app.db.execute<NoteRow>(sql`${NOTE_SELECT} where ${where}
      order by n.signed_at desc, n.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`);
    const ids = notes.rows.map((n) => n.id);
    const addenda = ids.length
      ? await this.app.db.execute<NoteRow>(
          sql`${NOTE_SELECT} where n.addendum_of in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )}) order by n.signed_at, n.id`,
        )
      : { rows: [] as NoteRow[] };
    const counted = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from progress_notes n where ${where}`,
    );
    await this.app.audit.record(ctx, {
      action: 'hospitalization.notes',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: stay.patient.id,
      details: { page, results: ids.length },
    });
    const results: TProgressNote[] = notes.rows.map((n) => ({
      ...toNote(n),
      addenda: addenda.rows.filter((a) => a.addendum_of === n.id).map(toNote),
    }));
    return { rows: results, count: Number(counted.rows[0]?.n ?? 0) };
  }

  /** A note is signed as written; once the stay is over, only addenda to existing notes are accepted. */
  async addNote(
    ctx: ServiceContext,
    id: string,
    body: { text: string; addendum_of?: string | null | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    return this.app.db.transaction(async (tx) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (body.addendum_of) {
        const parent = await tx
          .select({ id: progressNotes.id, addendumOf: progressNotes.addendumOf })
          .from(progressNotes)
          .where(and(eq(progressNotes.id, body.addendum_of), eq(progressNotes.hospitalizationId, id)));
        if (!parent[0] || parent[0].addendumOf)
          throw badRequest({ addendum_of: ['hospitalizations.note_unknown'] });
      } else if (!OPEN.includes(stay.status)) throw conflict('hospitalizations.closed_notes');
      const [row] = await tx
        .insert(progressNotes)
        .values({
          hospitalId: hospital.id,
          hospitalizationId: id,
          addendumOf: body.addendum_of ?? null,
          authorId: me,
          text: body.text,
        })
        .returning({ id: progressNotes.id });
      await this.app.audit.record(
        ctx,
        {
          action: body.addendum_of ? 'hospitalization.note_addendum' : 'hospitalization.note',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { note: row!.id },
        },
        tx,
      );
      const res = await tx.execute<NoteRow>(sql`${NOTE_SELECT} where n.id = ${row!.id}`);
      return { ...toNote(res.rows[0]!), addenda: [] };
    });
  }

  // Nurses ------------------------------------------------------------------------------------------------

  /** A nurse reads her own patients; the charge nurse, head doctors and administrators any nurse's. */
  async nursePatients(
    ctx: ServiceContext,
    nurseId: string,
    includePending: boolean,
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    // The caller's own roles come with her sign-in check; another nurse's are read.
    const isNurse =
      nurseId === me
        ? hospital.roleCodes.some((r) => NURSE_ROLES.has(r.toUpperCase()))
        : Number(
            (
              await this.app.db.execute<{ n: number }>(
                sql`select count(*)::int as n from memberships where hospital_id = ${hospital.id}
                  and user_id = ${nurseId} and is_active and upper(role_code) in ('NURSE', 'CHARGE_NURSE')`,
              )
            ).rows[0]?.n ?? 0,
          ) > 0;
    if (!isNurse) throw notFound();
    if (
      nurseId !== me &&
      !hospital.groups.some((g) => g === 'queue_manager' || g === 'head_doctor' || g === 'admin')
    )
      throw forbidden('hospitalizations.other_nurse');
    const result = await nursePatients(
      this.app.db,
      hospital.id,
      nurseId,
      includePending,
      ctx.lang,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, {
      action: 'nurse.patients',
      resourceType: 'hospitalization',
      details: { nurse: nurseId, page, results: result.rows.length },
    });
    return result;
  }

  /** For the transfer service: the locked stay and the bed move, in its transaction. */
  lockStay(tx: Tx, hospitalId: string, id: string) {
    return lockStay(tx, hospitalId, id);
  }
  moveWithin(
    tx: Tx,
    ctx: ServiceContext,
    stay: LockedStay,
    bedId: string,
    within: { department?: string; ward?: string },
  ) {
    return this.placeIn(tx, ctx, stay, bedId, within);
  }
  leave(tx: Tx, stay: LockedStay, now: Date) {
    return this.leaveBed(tx, stay, now);
  }
  notifyBed(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    stay: LockedStay,
    bed: { label: string; department_id: string; ward_name: string },
  ) {
    return this.tellBed(tx, ctx, notify, stay, bed);
  }
}

interface NoteRow {
  [column: string]: unknown;
  id: string;
  addendum_of: string | null;
  text: string;
  signed_at: Date | string;
  a_id: string;
  a_first: string;
  a_last: string;
}
const NOTE_SELECT = sql`select n.id, n.addendum_of, n.text, n.signed_at, a.id as a_id, a.first_name as a_first,
    a.last_name as a_last
  from progress_notes n join users a on a.id = n.author_id`;
const toNote = (n: NoteRow) => ({
  id: n.id,
  text: n.text,
  author: personRef(n.a_id, n.a_first, n.a_last)!,
  signed_at: isoRequired(n.signed_at),
});
