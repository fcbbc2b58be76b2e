import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { APPOINTMENT_TYPES, WEEKDAY_CODES } from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../src/db/schema/common.js';
import {
  departments as departmentsTable,
  dictationRecordings,
  examOrders,
  jobs,
  medicationPresentations,
  memberships,
  notes,
  patientDocuments,
} from '../../src/db/schema/index.js';
import type { Caller, DepartmentCode, HospitalKit, MatrixCaller } from '../../src/modules/access-matrix.js';
import { ensureExamCatalogue } from '../../src/modules/exams/exam-catalogue.js';
import { withNotifications } from '../../src/modules/notifications/notifications.service.js';
import { ensureMedicationReference } from '../../src/modules/pharmacy/medication-reference.js';
import { ACCOUNT_PASSWORD, lastLink, loginPair, makeAccount } from '../accounts.js';
import type { TestContext } from '../app.js';
import { insertTestIcd10 } from '../consultations.js';
import { makeHospital, makeUser, tokenFor } from '../factories.js';

/** The role code the harness gives each role group. */
export const GROUP_ROLE: Record<DashboardGroup, string> = {
  head_doctor: 'HEAD_DOCTOR',
  doctor: 'DOCTOR',
  midwife: 'SAGE_FEMME',
  secretary: 'SECRETARY',
  queue_manager: 'QUEUE_MANAGER',
  nurse: 'NURSE',
  admin: 'ADMIN',
  pharmacist: 'PHARMACIST',
  cashier: 'CASHIER',
};
export const GROUPS = Object.keys(GROUP_ROLE) as DashboardGroup[];
/** Decision 0070: the pharmacist works only in the pharmacy, the cashier only at the cash desk. */
const DESK_GROUPS: readonly DashboardGroup[] = ['pharmacist', 'cashier'];
export const CALLERS: readonly MatrixCaller[] = [...GROUPS, 'anonymous', 'waiting'];

const groupDepartment = (g: DashboardGroup): DepartmentCode => (g === 'midwife' ? 'MAT' : 'URG');

/** A signed-in caller of the harness, with the headers of its requests. */
export interface Member extends Caller {
  token: string | null;
}

export interface Hospital extends HospitalKit {
  /** Tokens of the staff, by group. */
  tokens: Record<DashboardGroup, string>;
  /** Every id and people-facing number this hospital's fixtures made (what another hospital must never see). */
  secrets: Set<string>;
}

export interface World {
  ctx: TestContext;
  own: Hospital;
  other: Hospital;
  /** The matrix callers, members of `own` (anonymous has no token, waiting has no hospital). */
  callers: Record<MatrixCaller, Member>;
  /** A new signed-in caller of `group` in `own`, with a known password (routes that change the account). */
  freshCaller(group: MatrixCaller): Promise<Member>;
  /**
   * A new hospital that `own`'s administrator made through the API (she is its administrator): where requests that
   * may change or deactivate their hospital go (`scratchHospital`).
   */
  scratchHospital(): Promise<string>;
}

let n = 0;
const uniqueName = (prefix: string) => `${prefix}${randomBytes(3).toString('hex')}${(n++).toString(36)}`;

/** A 1×1 PNG (a patient document upload). */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function expectStatus(res: { statusCode: number; body: string }, status: number, what: string) {
  if (res.statusCode !== status)
    throw new Error(`fixture ${what}: expected ${status}, got ${res.statusCode} ${res.body.slice(0, 300)}`);
}

async function makeKit(app: FastifyInstance, ctx: TestContext): Promise<Hospital> {
  const h = await makeHospital(ctx.database.db);
  const departments = Object.fromEntries(h.departments.map((d) => [d.code, d.id])) as Record<
    DepartmentCode,
    string
  >;
  const staff = {} as Record<DashboardGroup, string>;
  const tokens = {} as Record<DashboardGroup, string>;
  for (const g of GROUPS.filter((group) => !DESK_GROUPS.includes(group))) {
    const u = await makeUser(ctx.database.db, {
      role: GROUP_ROLE[g],
      hospitals: [{ id: h.id, departmentId: departments[groupDepartment(g)] }],
    });
    staff[g] = u.id;
    tokens[g] = await tokenFor(ctx.config.jwtSecret, u);
  }
  // The laboratory performs the exams; none of the harness's staff works there.
  const [lab] = await ctx.database.db
    .insert(departmentsTable)
    .values({ hospitalId: h.id, code: 'LAB', name: 'Laboratoire', kind: 'laboratory' })
    .returning({ id: departmentsTable.id });
  // The pharmacy: the nurse and the head doctor work there too (the doctor and the queue manager do not).
  const [pha] = await ctx.database.db
    .insert(departmentsTable)
    .values({ hospitalId: h.id, code: 'PHA', name: 'Pharmacie', kind: 'pharmacy' })
    .returning({ id: departmentsTable.id });
  await ctx.database.db.insert(memberships).values(
    (['nurse', 'head_doctor'] as const).map((g) => ({
      userId: staff[g],
      hospitalId: h.id,
      departmentId: pha!.id,
      roleCode: GROUP_ROLE[g],
    })),
  );
  const [paracetamol] = await ctx.database.db
    .select({ id: medicationPresentations.id, medication: medicationPresentations.medicationId })
    .from(medicationPresentations)
    .where(eq(medicationPresentations.code, 'paracetamol:tablet:oral:500 mg'));
  if (!paracetamol) throw new Error('fixture: the medication reference is not loaded');
  // The cash desk (decision 0027): the secretary and the head doctor work there too (not the queue manager or
  // the nurse, who pass the billing routes' roles).
  const [cai] = await ctx.database.db
    .insert(departmentsTable)
    .values({ hospitalId: h.id, code: 'CAI', name: 'Caisse', kind: 'billing' })
    .returning({ id: departmentsTable.id });
  await ctx.database.db.insert(memberships).values(
    (['secretary', 'head_doctor'] as const).map((g) => ({
      userId: staff[g],
      hospitalId: h.id,
      departmentId: cai!.id,
      roleCode: GROUP_ROLE[g],
    })),
  );
  // The pharmacist, a member of the pharmacy only, and the cashier, of the cash desk only (decision 0070).
  for (const [g, department] of [
    ['pharmacist', pha!.id],
    ['cashier', cai!.id],
  ] as const) {
    const u = await makeUser(ctx.database.db, {
      role: GROUP_ROLE[g],
      hospitals: [{ id: h.id, departmentId: department }],
    });
    staff[g] = u.id;
    tokens[g] = await tokenFor(ctx.config.jwtSecret, u);
  }
  // A second nurse of the emergency department, not a matrix caller: the author of the handoffs others acknowledge.
  const writer = await makeUser(ctx.database.db, {
    role: 'NURSE',
    hospitals: [{ id: h.id, departmentId: departments.URG }],
  });
  const writerToken = await tokenFor(ctx.config.jwtSecret, writer);
  // The appointments' provider: a doctor of the medicine department, not a matrix caller (issue 22).
  const provider = await makeUser(ctx.database.db, {
    role: 'DOCTOR',
    hospitals: [{ id: h.id, departmentId: departments.MED }],
  });
  const zone = h.timeZone;
  let slots = 0;
  let farDays = 0;
  const secrets = new Set<string>([
    writer.id,
    provider.id,
    h.id,
    h.code,
    lab!.id,
    pha!.id,
    cai!.id,
    ...Object.values(departments),
    ...Object.values(staff),
  ]);
  const keep = (...ids: string[]) => {
    for (const id of ids) secrets.add(id);
  };

  const as = (g: DashboardGroup, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[g]}`, 'hospital-id': h.id },
      ...(payload ? { payload } : {}),
    });

  const kit: Hospital = {
    id: h.id,
    code: h.code,
    departments,
    staff,
    tokens,
    secrets,
    standing: { patient: '', admission: '', triage: '', consultation: '', notification: '' },
    pharmacy: pha!.id,
    presentation: paracetamol.id,
    billing: cai!.id,
    consultationAct: '',
    async act() {
      const res = await as('admin', 'POST', '/api/medical-acts/', {
        code: uniqueName('ACT-').toUpperCase(),
        label_fr: 'Pansement simple',
        label_en: 'Simple dressing',
        category: 'nursing',
        tariffs: [{ payer_category: 'private', price: 2500 }],
      });
      expectStatus(res, 201, 'medical act');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async performedAct() {
      const a = await kit.admission();
      const res = await as('doctor', 'POST', '/api/medical-acts/performed/', {
        act: kit.consultationAct,
        admission: a.id,
      });
      expectStatus(res, 201, 'performed act');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, admission: a.id, patient: a.patient };
    },
    async payer() {
      const res = await as('admin', 'POST', '/api/payers/', {
        code: uniqueName('ASS-').toUpperCase(),
        name: uniqueName('Assurance '),
        kind: 'insurer',
        rules: [{ category: 'consultation', rate_percent: 80, ceiling: null }],
      });
      expectStatus(res, 201, 'payer');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async coverage() {
      const patient = await kit.patient();
      const res = await as('secretary', 'POST', `/api/patients/${patient.id}/coverages/`, {
        payer: await kit.payer(),
        member_number: uniqueName('M-'),
      });
      expectStatus(res, 201, 'coverage');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, patient: patient.id };
    },
    async invoice(status = 'draft') {
      const c = await kit.consultation('completed');
      const res = await as('secretary', 'POST', '/api/invoices/assemble/', { admission: c.admission });
      expectStatus(res, 201, 'invoice');
      // The assembly answers the draft's summary (decision 0049); its lines are read with the invoice.
      const read = await as('secretary', 'GET', `/api/invoices/${(res.json() as { id: string }).id}/`);
      expectStatus(read, 200, 'invoice read');
      const inv = read.json() as { id: string; lines: { id: string; performed_act: string }[] };
      keep(inv.id, ...inv.lines.flatMap((l) => [l.id, l.performed_act]));
      if (status === 'issued') {
        const issued = await as('secretary', 'POST', `/api/invoices/${inv.id}/issue/`);
        expectStatus(issued, 200, 'invoice issue');
        keep((issued.json() as { number: string }).number);
      }
      return { id: inv.id, line: inv.lines[0]!.id, patient: c.patient };
    },
    async cashSession(group = 'secretary') {
      const current = await as(group, 'GET', '/api/cash-sessions/current/');
      if (current.statusCode === 200) return (current.json() as { id: string }).id;
      const res = await as(group, 'POST', '/api/cash-sessions/', {
        floats: [{ currency: 'CDF', amount: 10_000 }],
      });
      expectStatus(res, 201, 'cash session');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async closeCashSession(group) {
      const current = await as(group, 'GET', '/api/cash-sessions/current/');
      if (current.statusCode !== 200) return;
      const id = (current.json() as { id: string }).id;
      expectStatus(await as(group, 'POST', `/api/cash-sessions/${id}/close/`, { counted: [] }), 200, 'close');
    },
    async payment() {
      const inv = await kit.invoice('issued');
      await kit.cashSession('secretary');
      const res = await as('secretary', 'POST', '/api/payments/', {
        invoice: inv.id,
        method: 'cash',
        amount: 1000,
      });
      expectStatus(res, 201, 'payment');
      const r = res.json() as { id: string; number: string; payment: { id: string } };
      keep(r.id, r.number, r.payment.id);
      return { id: r.payment.id, receipt: r.id, invoice: inv.id };
    },
    async medication() {
      return paracetamol.medication;
    },
    async lot() {
      const res = await as('nurse', 'POST', '/api/pharmacy/receipts/', {
        pharmacy: pha!.id,
        supplier: 'CAMEMO',
        delivery_note: uniqueName('BL-'),
        lines: [
          {
            presentation: paracetamol.id,
            lot_number: uniqueName('LOT-'),
            expiry_date: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
            quantity: 10,
          },
        ],
      });
      expectStatus(res, 201, 'receipt');
      const lot = (res.json() as { lots: { id: string }[] }).lots[0]!.id;
      keep(lot);
      return lot;
    },
    async prescription(status = 'draft', by = 'doctor') {
      const c = await kit.consultation();
      const res = await as(by, 'POST', '/api/prescriptions/', {
        patient: c.patient,
        consultation: c.id,
        weight_kg: 70,
        lines: [
          {
            presentation: paracetamol.id,
            dose: 1,
            dose_unit: 'comprimé',
            route: 'oral',
            frequency: { kind: 'times_per_day', times: 3 },
            duration_days: 3,
          },
        ],
      });
      expectStatus(res, 201, 'prescription');
      let rx = res.json() as { id: string; number: string; version: number; lines: { id: string }[] };
      keep(rx.id, rx.number, rx.lines[0]!.id);
      if (status === 'signed') {
        await kit.lot();
        const signed = await as(by, 'POST', `/api/prescriptions/${rx.id}/sign/`, { version: rx.version });
        expectStatus(signed, 200, 'prescription signature');
        rx = signed.json() as typeof rx;
      }
      return { id: rx.id, version: rx.version, line: rx.lines[0]!.id, patient: c.patient };
    },
    async patient(over = {}) {
      const res = await as('secretary', 'POST', '/api/patients/', {
        first_name: uniqueName('Fixture'),
        last_name: uniqueName('Kit'),
        sex: 'M',
        birth_date: '1979-11-03',
        confirm_duplicate: true,
        ...over,
      });
      expectStatus(res, 201, 'patient');
      const p = res.json() as { id: string; record_number: string };
      keep(p.id, p.record_number);
      return { id: p.id, record_number: p.record_number };
    },
    async admission(opts = {}) {
      const patient = await kit.patient();
      const department = opts.department ?? 'URG';
      const res = await as('secretary', 'POST', '/api/admissions/', {
        patient: patient.id,
        department: departments[department],
        admission_type: opts.type ?? (department === 'MAT' ? 'maternity' : 'emergency'),
        reason: 'Douleurs abdominales',
      });
      expectStatus(res, 201, 'admission');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, patient: patient.id };
    },
    async triaged() {
      const a = await kit.admission();
      const res = await as('nurse', 'POST', '/api/triage/', {
        admission: a.id,
        vitals: { temperature: 37.9, heart_rate: 88, systolic_bp: 122, diastolic_bp: 78, spo2: 98 },
        chief_complaint: 'Douleurs abdominales',
      });
      expectStatus(res, 201, 'triage');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, admission: a.id, patient: a.patient };
    },
    async assigned(doctor = staff.doctor) {
      const t = await kit.triaged();
      const res = await as('queue_manager', 'POST', '/api/assign-patient/', {
        admission: t.admission,
        doctor,
      });
      expectStatus(res, 200, 'assignment');
      const execution = (res.json() as { execution: { id: string } }).execution.id;
      keep(execution);
      return { admission: t.admission, patient: t.patient, execution };
    },
    async consultation(stage = 'in_progress') {
      const a = await kit.assigned();
      const res = await as('doctor', 'POST', `/api/admissions/${a.admission}/start-consultation/`);
      expectStatus(res, 201, 'consultation');
      const id = (res.json() as { id: string }).id;
      keep(id);
      const read = await as('doctor', 'GET', `/api/consultations/${id}/`);
      expectStatus(read, 200, 'consultation read');
      let version = (read.json() as { version: number }).version;
      let diagnosis: string | null = null;
      if (stage !== 'in_progress') {
        const saved = await as('doctor', 'PATCH', `/api/consultations/${id}/`, {
          version,
          outcome: 'discharge',
          conclusion: 'Paludisme simple',
        });
        expectStatus(saved, 200, 'consultation draft');
        version = (saved.json() as { version: number }).version;
        const dx = await as('doctor', 'POST', `/api/consultations/${id}/diagnoses/`, {
          free_text: 'Paludisme simple',
          rank: 'primary',
        });
        expectStatus(dx, 201, 'consultation diagnosis');
        diagnosis = (dx.json() as { id: string }).id;
        keep(diagnosis);
      }
      if (stage === 'completed') {
        const done = await as('doctor', 'POST', `/api/consultations/${id}/complete/`, {});
        expectStatus(done, 200, 'consultation completion');
        version = (done.json() as { version: number }).version;
      }
      return { id, admission: a.admission, patient: a.patient, version, diagnosis };
    },
    async notification(userId) {
      const [created] = await withNotifications(app, (_tx, notify) =>
        notify({
          hospitalId: h.id,
          recipients: [userId],
          type: 'other',
          title: { fr: 'Fixture', en: 'Fixture' },
          data: { action: 'fixture' },
        }),
      );
      if (!created) throw new Error('fixture notification: none created');
      keep(created.id);
      return created.id;
    },
    async exam(status = 'requested', opts = {}) {
      const patient = await kit.patient();
      const ordered = await as(opts.requester ?? 'doctor', 'POST', '/api/exams/', {
        patient: patient.id,
        exam: 'CRP',
      });
      expectStatus(ordered, 201, 'exam order');
      let order = (ordered.json() as { orders: { id: string; order_number: string; version: number }[] })
        .orders[0]!;
      keep(order.id, order.order_number);
      if (opts.performedBy) {
        await ctx.database.db
          .update(examOrders)
          .set({ departmentId: departments[opts.performedBy] })
          .where(eq(examOrders.id, order.id));
      }
      const steps: [string, 'POST' | 'PUT', string, object][] = [
        ['in_progress', 'POST', 'start', {}],
        ['completed', 'PUT', 'results', { results: { crp: 48 } }],
        ['validated', 'POST', 'validate', {}],
      ];
      for (const [reached, method, action, body] of steps) {
        if (status === 'requested') break;
        const res = await as('head_doctor', method, `/api/exams/${order.id}/${action}/`, {
          ...body,
          version: order.version,
        });
        expectStatus(res, 200, `exam ${action}`);
        order = res.json() as typeof order;
        if (reached === status) break;
      }
      return { id: order.id, patient: patient.id, version: order.version };
    },
    async failedJob() {
      const [job] = await ctx.database.db
        .insert(jobs)
        .values({
          name: 'fixture.failing',
          hospitalId: h.id,
          state: 'failed',
          attempts: 5,
          finishedAt: new Date(),
          lastError: 'fixture: it always fails',
        })
        .returning({ id: jobs.id });
      keep(job!.id);
      return job!.id;
    },
    async department() {
      const res = await as('admin', 'POST', '/api/departments/', {
        name: uniqueName('Service '),
        code: uniqueName('S').toUpperCase(),
        kind: 'clinical',
      });
      expectStatus(res, 201, 'department');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async ward() {
      const res = await as('admin', 'POST', '/api/wards/', {
        department: departments.URG,
        name: uniqueName('Unité '),
        code: uniqueName('W').toUpperCase(),
      });
      expectStatus(res, 201, 'ward');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async room() {
      const ward = await kit.ward();
      const res = await as('admin', 'POST', `/api/wards/${ward}/rooms/`, {
        name: uniqueName('R'),
        beds: ['A', 'B'],
      });
      expectStatus(res, 201, 'room');
      const room = (res.json() as { room_list: { id: string; beds: { id: string }[] }[] }).room_list[0]!;
      keep(room.id, ...room.beds.map((b) => b.id));
      return { id: room.id, ward, beds: room.beds.map((b) => b.id) };
    },
    async bed() {
      return (await kit.room()).beds[0]!;
    },
    async stay(opts = {}) {
      const a = await kit.admission();
      const res = await as('doctor', 'POST', '/api/hospitalizations/', {
        admission: a.id,
        department: departments.URG,
        reason: 'Paludisme grave',
      });
      expectStatus(res, 201, 'stay');
      const id = (res.json() as { id: string }).id;
      keep(id);
      let bed: string | null = null;
      if (opts.bed) {
        bed = await kit.bed();
        expectStatus(await as('nurse', 'POST', `/api/hospitalizations/${id}/bed/`, { bed }), 201, 'bed');
      }
      return { id, patient: a.patient, bed };
    },
    async transfer(status = 'requested') {
      const stay = await kit.stay({ bed: true });
      const ward = await kit.ward();
      const res = await as('doctor', 'POST', '/api/transfers/', {
        hospitalization: stay.id,
        kind: 'internal',
        to_department: departments.URG,
        to_ward: ward,
        reason: 'Surveillance rapprochée',
      });
      expectStatus(res, 201, 'transfer');
      const id = (res.json() as { id: string }).id;
      keep(id, ward);
      if (status === 'accepted')
        expectStatus(await as('head_doctor', 'POST', `/api/transfers/${id}/accept/`, {}), 200, 'accept');
      return { id, stay: stay.id };
    },
    async cleaningBed() {
      const bed = await kit.bed();
      expectStatus(await as('admin', 'PATCH', `/api/beds/${bed}/`, { status: 'cleaning' }), 200, 'cleaning');
      return bed;
    },
    async account() {
      const a = await makeAccount(app);
      return { id: a.id, email: a.email, password: a.password };
    },
    async session() {
      const a = await kit.account();
      const pair = await loginPair(app, a.email, a.password);
      return { access: pair.access, refresh: pair.refresh };
    },
    async carePlan() {
      const stay = await kit.stay({ bed: true });
      const res = await as('nurse', 'POST', '/api/care/plans/', { hospitalization: stay.id });
      expectStatus(res, 201, 'care plan');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, stay: stay.id, patient: stay.patient };
    },
    async careExecution() {
      const plan = await kit.carePlan();
      const res = await as('nurse', 'POST', `/api/care/plans/${plan.id}/orders/`, {
        kind: 'dressing',
        title: 'Pansement de cathéter',
        schedule: { kind: 'once' },
      });
      expectStatus(res, 201, 'care order');
      const order = (res.json() as { id: string }).id;
      const list = await as('nurse', 'GET', `/api/care/plans/${plan.id}/executions/?status=open`);
      expectStatus(list, 200, 'care executions');
      const id = (list.json() as { results: { id: string }[] }).results[0]!.id;
      keep(order, id);
      return { id, order, plan: plan.id };
    },
    async handoff() {
      const plan = await kit.carePlan();
      const res = await app.inject({
        method: 'POST',
        url: '/api/care/handoffs/',
        headers: { authorization: `Bearer ${writerToken}`, 'hospital-id': h.id },
        payload: {
          plan: plan.id,
          situation: 'Patient stable.',
          background: '',
          assessment: '',
          recommendation: '',
        },
      });
      expectStatus(res, 201, 'handoff');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, plan: plan.id };
    },
    async dose() {
      const rx = await kit.prescription('signed');
      const a = await ctx.database.db.execute<{ admission_id: string }>(
        sql`select c.admission_id from prescriptions p join consultations c on c.id = p.consultation_id
          where p.id = ${rx.id}`,
      );
      const res = await as('nurse', 'POST', '/api/care/plans/', { admission: a.rows[0]!.admission_id });
      expectStatus(res, 201, 'care plan of a visit');
      const plan = (res.json() as { id: string }).id;
      const from = new Date(Date.now() - 3_600_000).toISOString();
      const to = new Date(Date.now() + 24 * 3_600_000).toISOString();
      const mar = await as(
        'nurse',
        'GET',
        `/api/care/plans/${plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      );
      expectStatus(mar, 200, 'MAR');
      const doses = (mar.json() as { lines: { doses: { scheduled_at: string }[] }[] }).lines[0]!.doses;
      keep(plan);
      return { line: rx.line, scheduled_at: doses[0]!.scheduled_at, plan };
    },
    /** A dose of the MAR recorded as not given (FHIR MedicationAdministration). */
    async administration() {
      const dose = await kit.dose();
      const res = await as('nurse', 'POST', '/api/care/mar/administrations/', {
        outcome: 'not_given',
        prescription_line: dose.line,
        scheduled_at: dose.scheduled_at,
        idempotency_key: randomUUID(),
        reason: 'patient_absent',
      });
      expectStatus(res, 201, 'MAR dose');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async staffMember() {
      const res = await as('admin', 'POST', '/api/admin/staff/', {
        email: `${uniqueName('staff-')}@example.test`,
        first_name: 'Fixture',
        last_name: uniqueName('Staff'),
        role_code: 'NURSE',
        department: departments.URG,
      });
      expectStatus(res, 201, 'staff member');
      // The invitation (issue 36) is a membership waiting for the person: they accept it with the mailed link.
      const membership = (res.json() as { id: string }).id;
      const link = await lastLink(app, (res.json() as { email: string }).email);
      const accepted = await app.inject({
        method: 'POST',
        url: '/api/auth/invitations/accept/',
        payload: { token: link.path.split('/').pop(), new_password: ACCOUNT_PASSWORD },
      });
      expectStatus(accepted, 200, 'invitation accepted');
      const [row] = await ctx.database.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(eq(memberships.id, membership));
      keep(row!.userId, membership);
      return { id: row!.userId, membership };
    },
    async document() {
      const patient = await kit.patient();
      const res = await as('doctor', 'POST', '/api/documents/', {
        kind: 'medical_certificate',
        source: { type: 'patient', id: patient.id },
      });
      expectStatus(res, 201, 'document');
      const doc = res.json() as { id: string; number: string; verification_path: string };
      const token = doc.verification_path.split('/').pop()!;
      keep(doc.id, doc.number, token);
      return { id: doc.id, token, patient: patient.id };
    },
    async template() {
      const res = await as('admin', 'POST', '/api/document-templates/', {
        kind: 'free_letter',
        language: 'fr',
        paper: 'A4',
        name: uniqueName('Courrier '),
        body: '# Courrier\n\n{{ patient.full_name }}',
      });
      expectStatus(res, 201, 'document template');
      const t = res.json() as { id: string; version: number };
      keep(t.id);
      return { id: t.id, version: t.version };
    },
    provider: provider.id,
    async newProvider() {
      const u = await makeUser(ctx.database.db, {
        role: 'DOCTOR',
        hospitals: [{ id: h.id, departmentId: departments.MED }],
      });
      keep(u.id);
      return u.id;
    },
    async schedule() {
      const res = await as('admin', 'POST', '/api/appointments/schedules/', {
        provider: await kit.newProvider(),
        department: departments.MED,
        sessions: [{ weekday: 'mon', start: '08:00', end: '12:00' }],
        slot_minutes: 20,
        capacity: 2,
        types: ['new', 'follow_up'],
        valid_from: zonedDate(new Date(), zone),
      });
      expectStatus(res, 201, 'schedule');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    slot() {
      const tomorrow = addDays(zonedDate(new Date(), zone), 1);
      slots += 1;
      return new Date(
        zonedInstant(tomorrow, '08:00', zone).getTime() + (slots % 36) * 20 * 60_000,
      ).toISOString();
    },
    async appointment(status = 'booked') {
      const patient = await kit.patient();
      const id = uuidv7();
      const start = new Date(Math.floor(Date.now() / 60_000) * 60_000);
      await ctx.database.db.execute(sql`insert into appointments (id, hospital_id, patient_id, provider_id,
          department_id, start_at, end_at, appointment_type, reason, status, booked_by, checked_in_at)
        values (${id}, ${h.id}, ${patient.id}, ${provider.id}, ${departments.MED}, ${start.toISOString()}::timestamptz,
          ${new Date(start.getTime() + 20 * 60_000).toISOString()}::timestamptz, 'follow_up', 'Contrôle',
          ${status}, ${staff.secretary}, ${status === 'checked_in' ? start.toISOString() : null}::timestamptz)`);
      keep(id);
      return { id, patient: patient.id };
    },
    async scheduleException(who) {
      farDays += 1;
      const day = addDays(zonedDate(new Date(), zone), 1500 + farDays);
      const res = await as('admin', 'POST', '/api/appointments/exceptions/', {
        provider: who,
        start_date: day,
        end_date: day,
        kind: 'training',
      });
      expectStatus(res, 201, 'schedule exception');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async holiday() {
      farDays += 1;
      const res = await as('admin', 'POST', '/api/appointments/holidays/', {
        date: addDays(zonedDate(new Date(), zone), 2000 + farDays),
        name: uniqueName('Fête '),
      });
      expectStatus(res, 201, 'holiday');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async icsToken() {
      const res = await as('doctor', 'POST', '/api/appointments/ics-link/', {});
      expectStatus(res, 201, 'calendar link');
      const token = (res.json() as { url: string }).url
        .split('/')
        .pop()!
        .replace(/\.ics$/, '');
      keep(token);
      return token;
    },
    async chatConversation(member) {
      const res = await as('doctor', 'POST', '/api/chat/conversations/', {
        kind: 'group',
        title: uniqueName('Équipe '),
        members: [member, staff.nurse],
      });
      expectStatus(res, 201, 'chat conversation');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return id;
    },
    async chatMessage(author) {
      const conversation = await kit.chatConversation(author);
      const id = randomUUID();
      await ctx.database.db.execute(sql`insert into chat_messages (id, hospital_id, conversation_id, author_id, body)
        values (${id}, ${h.id}, ${conversation}, ${author}, ${'Le patient du box 2 est prêt.'})`);
      keep(id);
      return { id, conversation };
    },
    async chatGroupOf(creator) {
      const id = randomUUID();
      await ctx.database.db.execute(sql`insert into chat_conversations (id, hospital_id, kind, title, created_by)
        values (${id}, ${h.id}, 'group', ${uniqueName('Groupe ')}, ${creator})`);
      await ctx.database.db.execute(sql`insert into chat_members (conversation_id, user_id, hospital_id)
        values (${id}, ${creator}, ${h.id})`);
      keep(id);
      return id;
    },
    async chatAttachment(member) {
      const conversation = await kit.chatConversation(member);
      const id = randomUUID();
      const bytes = Buffer.from(TINY_PNG, 'base64');
      const key = `chat/${h.id}/${id}`;
      await app.files.put(key, bytes);
      await ctx.database.db.execute(sql`insert into chat_messages (id, hospital_id, conversation_id, author_id, body,
          attachment_name, attachment_type, attachment_size, attachment_sha256, attachment_key)
        values (${id}, ${h.id}, ${conversation}, ${member}, '', 'photo.png', 'image/png', ${bytes.length},
          ${createHash('sha256').update(bytes).digest('hex')}, ${key})`);
      keep(id);
      return id;
    },
    async note(authorId) {
      const id = uuidv7();
      await app.db.insert(notes).values({ id, hospitalId: h.id, authorId, title: uniqueName('Note') });
      keep(id);
      return id;
    },
    async patientNote(authorId) {
      const patient = await kit.patient();
      const id = uuidv7();
      await app.db
        .insert(notes)
        .values({ id, hospitalId: h.id, authorId, patientId: patient.id, title: uniqueName('Note') });
      keep(id);
      return { id, patient: patient.id };
    },
    async dhis2Mapping() {
      const res = await as('admin', 'PUT', '/api/stats/dhis2/mapping/', {
        org_unit: 'DiszpKrYNg8',
        weekly_data_set: 'Nyh6laLdBEJ',
        rows: [
          {
            indicator: 'idsr.malaria_confirmed.total',
            data_element: 'vq2qO3eTrNi',
            category_option_combo: 'HllvX50cXC0',
          },
          { indicator: 'visits.total', data_element: 'GQY2lXrypjO', category_option_combo: 'HllvX50cXC0' },
        ],
      });
      expectStatus(res, 200, 'dhis2 mapping');
    },
    async recording(authorId) {
      const patient = await kit.patient();
      const document = uuidv7();
      const id = uuidv7();
      await app.db.insert(patientDocuments).values({
        id: document,
        hospitalId: h.id,
        patientId: patient.id,
        category: 'dictation',
        fileName: 'dictee.webm',
        contentType: 'audio/webm',
        sizeBytes: 4,
        sha256: '0'.repeat(64),
        storageKey: `patient-documents/${h.id}/${document}`,
        uploadedBy: authorId,
      });
      await app.db.insert(dictationRecordings).values({
        id,
        hospitalId: h.id,
        authorId,
        patientId: patient.id,
        documentId: document,
        language: 'fr',
        sizeBytes: 4,
      });
      keep(id, document);
      return { id, patient: patient.id };
    },
    async patientDocument() {
      const patient = await kit.patient();
      const boundary = 'greensenkitboundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="patient"\r\n\r\n${patient.id}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nid_document\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="carte.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        Buffer.from(TINY_PNG, 'base64'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/api/patient-documents/',
        headers: {
          authorization: `Bearer ${tokens.secretary}`,
          'hospital-id': h.id,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      expectStatus(res, 201, 'patient document');
      const id = (res.json() as { id: string }).id;
      keep(id);
      return { id, patient: patient.id };
    },
  };
  const consultationAct = await as('admin', 'POST', '/api/medical-acts/', {
    code: 'CONS-GEN',
    label_fr: 'Consultation de médecine générale',
    label_en: 'General practice consultation',
    category: 'consultation',
    auto_source: 'consultation',
    tariffs: [
      { payer_category: 'private', price: 500_000 },
      { payer_category: 'insured', price: 500_000 },
    ],
  });
  expectStatus(consultationAct, 201, 'consultation act');
  kit.consultationAct = (consultationAct.json() as { id: string }).id;
  keep(kit.consultationAct);
  const standingSchedule = await as('admin', 'POST', '/api/appointments/schedules/', {
    provider: provider.id,
    department: departments.MED,
    sessions: WEEKDAY_CODES.map((weekday) => ({ weekday, start: '00:00', end: '23:59' })),
    slot_minutes: 20,
    capacity: 50,
    types: [...APPOINTMENT_TYPES],
    valid_from: addDays(zonedDate(new Date(), zone), -1),
  });
  expectStatus(standingSchedule, 201, 'standing schedule');
  keep((standingSchedule.json() as { id: string }).id);
  const consultation = await kit.consultation();
  const triaged = await kit.triaged();
  kit.standing = {
    patient: triaged.patient,
    admission: triaged.admission,
    triage: triaged.id,
    consultation: consultation.id,
    notification: await kit.notification(staff.nurse),
  };
  return kit;
}

/** Two hospitals with one member per role group each, their rows, and the callers of the matrix. */
export async function buildWorld(ctx: TestContext): Promise<World> {
  // The shipped catalogues every hospital orders from (loaded on start by main.ts).
  await ensureExamCatalogue(ctx.database.db);
  await ensureMedicationReference(ctx.database.db);
  // A discharge names its diagnoses (issue 37): the codes the requests use.
  await insertTestIcd10(ctx.database.db);
  const own = await makeKit(ctx.app, ctx);
  const other = await makeKit(ctx.app, ctx);
  const waiting = await makeUser(ctx.database.db, {});
  const callers = {} as Record<MatrixCaller, Member>;
  for (const g of GROUPS) {
    callers[g] = { group: g, userId: own.staff[g], password: null, hospitalId: own.id, token: own.tokens[g] };
  }
  callers.anonymous = { group: 'anonymous', userId: null, password: null, hospitalId: null, token: null };
  callers.waiting = {
    group: 'waiting',
    userId: waiting.id,
    password: null,
    hospitalId: null,
    token: await tokenFor(ctx.config.jwtSecret, waiting),
  };
  return {
    ctx,
    own,
    other,
    callers,
    async freshCaller(group) {
      if (group === 'anonymous') return callers.anonymous;
      const member = group !== 'waiting';
      const a = await makeAccount(
        ctx.app,
        member
          ? {
              role: GROUP_ROLE[group],
              hospitals: [{ id: own.id, departmentId: own.departments[groupDepartment(group)] }],
            }
          : {},
      );
      return {
        group,
        userId: a.id,
        password: ACCOUNT_PASSWORD,
        hospitalId: member ? own.id : null,
        token: await tokenFor(ctx.config.jwtSecret, a),
      };
    },
    async scratchHospital() {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/hospitals/',
        headers: { authorization: `Bearer ${own.tokens.admin}`, 'hospital-id': own.id },
        payload: {
          name: uniqueName('Hôpital '),
          code: uniqueName('S').toUpperCase(),
          time_zone: 'Africa/Abidjan',
          currency: 'XOF',
          triage_scale: 'FRENCH',
        },
      });
      expectStatus(res, 201, 'scratch hospital');
      return (res.json() as { id: string }).id;
    },
  };
}
