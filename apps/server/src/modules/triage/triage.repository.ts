import type { TriageScale } from '@greensen/shared/domain/triage';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { admissions, hospitals, triageRecords } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  isoRequired,
  minutesBetween,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';

export type TriageInsert = typeof triageRecords.$inferInsert;

/** The triage scale the hospital uses. */
export async function hospitalScale(q: Queryable, hospitalId: string): Promise<TriageScale> {
  const [h] = await q
    .select({ scale: hospitals.triageScale })
    .from(hospitals)
    .where(eq(hospitals.id, hospitalId));
  return h!.scale;
}

/** Locks a visit of the hospital about to be triaged: its status and patient. */
export async function lockVisitToTriage(q: Queryable, hospitalId: string, admissionId: string) {
  const [admission] = await q
    .select({ id: admissions.id, status: admissions.status, patientId: admissions.patientId })
    .from(admissions)
    .where(and(eq(admissions.hospitalId, hospitalId), eq(admissions.id, admissionId)))
    .for('update');
  return admission ?? null;
}

/** The visit takes its triage's level, which orders every queue. */
export async function recordVisitTriage(
  q: Queryable,
  admissionId: string,
  t: {
    triageId: string;
    level: string;
    rank: (typeof admissions.$inferInsert)['triageRank'];
    target: (typeof admissions.$inferInsert)['triageTargetMinutes'];
  },
) {
  await q
    .update(admissions)
    .set({
      triageId: t.triageId,
      triageLevel: t.level,
      triageRank: t.rank,
      triageTargetMinutes: t.target,
      updatedAt: new Date(),
    })
    .where(eq(admissions.id, admissionId));
}

export async function insertTriage(q: Queryable, values: TriageInsert) {
  const [row] = await q.insert(triageRecords).values(values).returning({ id: triageRecords.id });
  return row!.id;
}

type TriageViewRow = RefRow & {
  id: string;
  admission_id: string;
  scale: 'FRENCH' | 'SATS';
  temperature: string | number | null;
  heart_rate: number | null;
  respiratory_rate: number | null;
  systolic_bp: number | null;
  diastolic_bp: number | null;
  spo2: number | null;
  weight: string | number | null;
  height: string | number | null;
  glycaemia: string | number | null;
  pain: number | null;
  gcs: number | null;
  avpu: 'A' | 'V' | 'P' | 'U' | null;
  confused: boolean | null;
  mobility: 'walking' | 'with_help' | 'immobile' | null;
  trauma: boolean | null;
  chief_complaint: string;
  discriminators: string[] | string;
  tews: number | null;
  suggested_level: string;
  level: string;
  override_reason: string | null;
  notes: string | null;
  target_minutes: number | null;
  recorded_at: Date | string;
  u_id: string;
  u_first_name: string;
  u_last_name: string;
};

const num = (v: string | number | null) => (v === null ? null : Number(v));

function toTriage(r: TriageViewRow) {
  return {
    id: r.id,
    admission: r.admission_id,
    patient: patientRef(r),
    department: departmentRef(r),
    scale: r.scale,
    vitals: {
      temperature: num(r.temperature),
      heart_rate: num(r.heart_rate),
      respiratory_rate: num(r.respiratory_rate),
      systolic_bp: num(r.systolic_bp),
      diastolic_bp: num(r.diastolic_bp),
      spo2: num(r.spo2),
      weight: num(r.weight),
      height: num(r.height),
      glycaemia: num(r.glycaemia),
      pain: num(r.pain),
      gcs: num(r.gcs),
      avpu: r.avpu,
      confused: r.confused,
      mobility: r.mobility,
      trauma: r.trauma,
    },
    chief_complaint: r.chief_complaint,
    discriminators: Array.isArray(r.discriminators)
      ? r.discriminators
      : (JSON.parse(r.discriminators) as string[]),
    tews: num(r.tews),
    suggested_level: r.suggested_level,
    level: r.level,
    overridden: r.level !== r.suggested_level,
    override_reason: r.override_reason,
    notes: r.notes,
    target_minutes: num(r.target_minutes),
    recorded_by: personRef(r.u_id, r.u_first_name, r.u_last_name)!,
    recorded_at: isoRequired(r.recorded_at),
  };
}

const TRIAGE_SELECT = sql`select t.id, t.admission_id, t.scale, t.temperature, t.heart_rate, t.respiratory_rate,
    t.systolic_bp, t.diastolic_bp, t.spo2, t.weight, t.height, t.glycaemia, t.pain, t.gcs, t.avpu, t.confused,
    t.mobility, t.trauma, t.chief_complaint, array_to_json(t.discriminators) as discriminators, t.tews,
    t.suggested_level, t.level, t.override_reason, t.notes, t.target_minutes, t.recorded_at,
    u.id as u_id, u.first_name as u_first_name, u.last_name as u_last_name,
    ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}
  from triage_records t
  join admissions a on a.id = t.admission_id
  join patients p on p.id = t.patient_id
  join departments d on d.id = a.department_id
  join users u on u.id = t.recorded_by`;

export async function findTriage(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<TriageViewRow>(
    sql`${TRIAGE_SELECT} where t.hospital_id = ${hospitalId} and t.id = ${id}`,
  );
  return res.rows[0] ? toTriage(res.rows[0]) : null;
}

/** The triage record of a visit (its latest: the one the visit points to), or null before triage. */
export async function triageOfAdmission(q: Queryable, hospitalId: string, admissionId: string) {
  const res = await q.execute<TriageViewRow>(
    sql`${TRIAGE_SELECT} where t.hospital_id = ${hospitalId}
      and t.id = (select triage_id from admissions where hospital_id = ${hospitalId} and id = ${admissionId})`,
  );
  return res.rows[0] ? toTriage(res.rows[0]) : null;
}

export async function listTriage(
  q: Queryable,
  hospitalId: string,
  f: { admission?: string | undefined; patient?: string | undefined },
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`t.hospital_id = ${hospitalId}`];
  if (f.admission) where.push(sql`t.admission_id = ${f.admission}`);
  if (f.patient) where.push(sql`t.patient_id = ${f.patient}`);
  const cond = sql.join(where, sql` and `);
  const rows = await q.execute<TriageViewRow>(
    sql`${TRIAGE_SELECT} where ${cond} order by t.recorded_at desc, t.id desc limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from triage_records t where ${cond}`,
  );
  return { rows: rows.rows.map(toTriage), count: Number(counted.rows[0]?.n ?? 0) };
}

type WaitingRow = RefRow & {
  admission_id: string;
  status: 'waiting' | 'assigned';
  queue_number: number;
  admitted_at: Date | string;
  reason: string;
  triage_id: string | null;
  triage_level: string | null;
  triage_rank: number | null;
  triage_target_minutes: number | null;
  chief_complaint: string | null;
  doc_id: string | null;
  doc_first_name: string | null;
  doc_last_name: string | null;
};

/**
 * The live waiting room: open visits not yet in consultation — those nobody has triaged yet first (nobody knows
 * how urgent they are: issue 25), then by triage level — and by arrival within each.
 */
export async function waitingRoom(
  q: Queryable,
  hospitalId: string,
  department: string | undefined,
  limit: number,
  offset: number,
) {
  const cond = sql`a.hospital_id = ${hospitalId} and a.status in ('waiting', 'assigned')
    ${department ? sql`and a.department_id = ${department}` : sql``}`;
  const rows =
    await q.execute<WaitingRow>(sql`select a.id as admission_id, a.status, a.queue_number, a.admitted_at, a.reason,
      a.triage_id, a.triage_level, a.triage_rank, a.triage_target_minutes, t.chief_complaint,
      doc.id as doc_id, doc.first_name as doc_first_name, doc.last_name as doc_last_name,
      ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}
    from admissions a
    join patients p on p.id = a.patient_id
    join departments d on d.id = a.department_id
    left join triage_records t on t.id = a.triage_id
    left join executions e on e.admission_id = a.id and e.status = 'assigned'
    left join users doc on doc.id = e.doctor_id
    where ${cond}
    order by a.triage_rank asc nulls first, a.admitted_at asc, a.id
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from admissions a where ${cond}`,
  );
  const now = new Date();
  return {
    count: Number(counted.rows[0]?.n ?? 0),
    rows: rows.rows.map((r) => {
      const waited = minutesBetween(r.admitted_at, now);
      const target = r.triage_target_minutes === null ? null : Number(r.triage_target_minutes);
      return {
        admission_id: r.admission_id,
        patient: patientRef(r),
        department: departmentRef(r),
        status: r.status,
        queue_number: Number(r.queue_number),
        admitted_at: isoRequired(r.admitted_at),
        reason: r.reason,
        triage:
          r.triage_id && r.triage_level
            ? {
                id: r.triage_id,
                level: r.triage_level,
                rank: Number(r.triage_rank),
                target_minutes: target,
                chief_complaint: r.chief_complaint ?? '',
              }
            : null,
        doctor: personRef(r.doc_id, r.doc_first_name, r.doc_last_name),
        waited_minutes: waited,
        target_exceeded: target !== null && waited > target,
      };
    }),
  };
}
