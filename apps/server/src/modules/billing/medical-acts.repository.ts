import type { TMedicalAct, TPerformedAct, TTariff } from '@greensen/shared/contracts/medical-acts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { actTariffs, medicalActs, performedActs } from '../../db/schema/index.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { containsPattern, sqlList } from '../../lib/queries.js';

export type ActRow = {
  id: string;
  code: string;
  label_fr: string;
  label_en: string;
  category: TMedicalAct['category'];
  is_active: boolean;
  auto_source: 'consultation' | 'bed_day' | null;
  exam_id: string | null;
  exam_code: string | null;
  exam_name_fr: string | null;
  presentation_id: string | null;
  created_at: string | Date;
  updated_at: string | Date;
};

const ACT_COLUMNS = sql`ma.id, ma.code, ma.label_fr, ma.label_en, ma.category, ma.is_active, ma.auto_source,
  ma.exam_id, ec.code as exam_code, ec.name_fr as exam_name_fr, ma.presentation_id, ma.created_at, ma.updated_at`;
const ACT_FROM = sql`from medical_acts ma left join exam_catalogue ec on ec.id = ma.exam_id`;

export interface ActFilters {
  search?: string | undefined;
  category?: string | undefined;
  active?: boolean | undefined;
}

export async function listActs(
  q: Queryable,
  hospitalId: string,
  f: ActFilters,
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`ma.hospital_id = ${hospitalId}`];
  if (f.search) {
    const like = containsPattern(f.search.toLowerCase());
    where.push(
      sql`f_unaccent(lower(ma.code || ' ' || ma.label_fr || ' ' || ma.label_en)) like f_unaccent(${like})`,
    );
  }
  if (f.category) where.push(sql`ma.category = ${f.category}`);
  if (f.active !== undefined) where.push(sql`ma.is_active = ${f.active}`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<ActRow>(sql`select ${ACT_COLUMNS} ${ACT_FROM} where ${cond}
      order by ma.category, ma.code limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from medical_acts ma where ${cond}`),
  ]);
  return { rows: rows.rows, count: Number(count.rows[0]?.n ?? 0) };
}

export async function findAct(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res = await q.execute<ActRow>(
    sql`select ${ACT_COLUMNS} ${ACT_FROM} where ma.hospital_id = ${hospitalId} and ma.id = ${id}
      ${lock ? sql`for update of ma` : sql``}`,
  );
  return res.rows[0] ?? null;
}

type TariffRow = {
  id: string;
  act_id: string;
  payer_category: TTariff['payer_category'];
  price: string | number;
  currency: string;
  valid_from: string;
  valid_to: string | null;
};

export const toTariff = (r: TariffRow): TTariff => ({
  id: r.id,
  payer_category: r.payer_category,
  price: Number(r.price),
  currency: r.currency,
  valid_from: r.valid_from,
  valid_to: r.valid_to,
});

/** Tariffs of acts, newest first; `on` (a date): only those valid that day. */
export async function tariffsOf(
  q: Queryable,
  actIds: string[],
  on?: string,
): Promise<Map<string, TTariff[]>> {
  const out = new Map<string, TTariff[]>();
  if (!actIds.length) return out;
  const res = await q.execute<TariffRow>(sql`select id, act_id, payer_category, price, currency,
      valid_from::text as valid_from, valid_to::text as valid_to
    from act_tariffs where act_id in (${sqlList(actIds)})
    ${on ? sql`and valid_from <= ${on}::date and (valid_to is null or valid_to >= ${on}::date)` : sql``}
    order by payer_category, valid_from desc`);
  for (const r of res.rows) {
    const list = out.get(r.act_id) ?? [];
    list.push(toTariff(r));
    out.set(r.act_id, list);
  }
  return out;
}

export function toAct(r: ActRow, current: TTariff[]): TMedicalAct {
  return {
    id: r.id,
    code: r.code,
    label_fr: r.label_fr,
    label_en: r.label_en,
    category: r.category,
    is_active: r.is_active,
    auto_source: r.auto_source,
    exam: r.exam_id ? { id: r.exam_id, code: r.exam_code ?? '', name: r.exam_name_fr ?? '' } : null,
    presentation: r.presentation_id,
    current_tariffs: current,
  };
}

// Performed acts ---------------------------------------------------------------------------------------

type PerformedRow = {
  id: string;
  act_id: string;
  act_code: string;
  act_label_fr: string;
  act_label_en: string;
  act_category: TPerformedAct['act']['category'];
  patient_id: string;
  admission_id: string | null;
  hospitalization_id: string | null;
  quantity: number;
  source: TPerformedAct['source'];
  performed_at: string | Date;
  by_id: string | null;
  by_first: string | null;
  by_last: string | null;
  cancelled_at: string | Date | null;
  cancel_reason: string | null;
  is_billed: boolean;
};

const PERFORMED_SELECT = sql`select pa.id, pa.act_id, ma.code as act_code, ma.label_fr as act_label_fr,
    ma.label_en as act_label_en, ma.category as act_category, pa.patient_id, pa.admission_id,
    pa.hospitalization_id, pa.quantity, pa.source, pa.performed_at, u.id as by_id, u.first_name as by_first,
    u.last_name as by_last, pa.cancelled_at, pa.cancel_reason,
    exists (select 1 from invoice_lines il where il.performed_act_id = pa.id and il.removed_at is null) as is_billed
  from performed_acts pa join medical_acts ma on ma.id = pa.act_id left join users u on u.id = pa.performed_by`;

export function toPerformed(r: PerformedRow): TPerformedAct {
  return {
    id: r.id,
    act: {
      id: r.act_id,
      code: r.act_code,
      label_fr: r.act_label_fr,
      label_en: r.act_label_en,
      category: r.act_category,
    },
    patient: r.patient_id,
    admission: r.admission_id,
    hospitalization: r.hospitalization_id,
    quantity: Number(r.quantity),
    source: r.source,
    performed_at: isoRequired(r.performed_at),
    performed_by: r.by_id ? { id: r.by_id, full_name: fullName(r.by_first, r.by_last) } : null,
    is_cancelled: r.cancelled_at !== null,
    cancel_reason: r.cancel_reason,
    is_billed: Boolean(r.is_billed),
  };
}

export interface PerformedFilters {
  admission?: string | undefined;
  hospitalization?: string | undefined;
  patient?: string | undefined;
}

export async function listPerformed(
  q: Queryable,
  hospitalId: string,
  f: PerformedFilters,
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`pa.hospital_id = ${hospitalId}`];
  if (f.admission) where.push(sql`pa.admission_id = ${f.admission}`);
  if (f.hospitalization) where.push(sql`pa.hospitalization_id = ${f.hospitalization}`);
  if (f.patient) where.push(sql`pa.patient_id = ${f.patient}`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<PerformedRow>(sql`${PERFORMED_SELECT} where ${cond}
      order by pa.performed_at desc, pa.id limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from performed_acts pa where ${cond}`),
  ]);
  return { rows: rows.rows.map(toPerformed), count: Number(count.rows[0]?.n ?? 0) };
}

export async function findPerformed(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<PerformedRow>(
    sql`${PERFORMED_SELECT} where pa.hospital_id = ${hospitalId} and pa.id = ${id}`,
  );
  return res.rows[0] ? toPerformed(res.rows[0]) : null;
}

/** A visit or a stay of the hospital: its patient, start, end (null: open) and the patient's birth date and sex. */
export interface Encounter {
  kind: 'admission' | 'hospitalization';
  id: string;
  patientId: string;
  start: string;
  end: string | null;
  admissionId: string | null;
  birthDate: string | null;
  sex: 'F' | 'M';
}

/**
 * A visit that led to a stay is billed with the stay (issue 37): the stay's invoice carries the visit's
 * consultation, its exams and medicines, and the bed-days. The latest stay of the visit, or null.
 */
export async function stayOfVisit(q: Queryable, hospitalId: string, admissionId: string) {
  const res = await q.execute<{ id: string }>(
    sql`select id from hospitalizations where hospital_id = ${hospitalId} and admission_id = ${admissionId}
      order by requested_at desc limit 1`,
  );
  return res.rows[0]?.id ?? null;
}

/** The performed acts (`pa`) of an encounter: a visit's, or a stay's and those of the visit it came from. */
export function actsOfEncounter(enc: Encounter): SQL {
  if (enc.kind === 'admission') return sql`pa.admission_id = ${enc.id}`;
  return enc.admissionId
    ? sql`(pa.hospitalization_id = ${enc.id} or pa.admission_id = ${enc.admissionId})`
    : sql`pa.hospitalization_id = ${enc.id}`;
}

/**
 * The visit or stay of `ref`, or null. `also` adds columns and joins to the same statement (the assembly reads
 * its caller's roles and locks the existing invoice with it: one round trip instead of three); its columns are
 * answered in `also`.
 */
export async function findEncounter<Also extends Record<string, unknown> = Record<string, never>>(
  q: Queryable,
  hospitalId: string,
  ref: { admission?: string | null | undefined; hospitalization?: string | null | undefined },
  also: { columns: SQL; joins: SQL } = { columns: sql``, joins: sql`` },
): Promise<(Encounter & { also: Also }) | null> {
  if (ref.admission) {
    const res = await q.execute<
      {
        patient_id: string;
        admitted_at: string | Date;
        closed_at: string | Date | null;
        birth_date: string | null;
        sex: 'F' | 'M';
      } & Also
    >(sql`select a.patient_id, a.admitted_at, a.closed_at, p.birth_date::text as birth_date, p.sex ${also.columns}
      from admissions a join patients p on p.id = a.patient_id ${also.joins}
      where a.hospital_id = ${hospitalId} and a.id = ${ref.admission}`);
    const r = res.rows[0];
    return r
      ? {
          kind: 'admission',
          id: ref.admission,
          patientId: r.patient_id,
          start: isoRequired(r.admitted_at),
          end: r.closed_at ? isoRequired(r.closed_at) : null,
          admissionId: ref.admission,
          birthDate: r.birth_date,
          sex: r.sex,
          also: r as unknown as Also,
        }
      : null;
  }
  if (!ref.hospitalization) return null;
  const res = await q.execute<
    {
      patient_id: string;
      start: string | Date;
      ended_at: string | Date | null;
      admission_id: string | null;
      birth_date: string | null;
      sex: 'F' | 'M';
    } & Also
  >(sql`select s.patient_id, coalesce(s.admitted_at, s.requested_at) as start, s.ended_at, s.admission_id,
      p.birth_date::text as birth_date, p.sex ${also.columns}
    from hospitalizations s join patients p on p.id = s.patient_id ${also.joins}
    where s.hospital_id = ${hospitalId} and s.id = ${ref.hospitalization}`);
  const r = res.rows[0];
  return r
    ? {
        kind: 'hospitalization',
        id: ref.hospitalization,
        patientId: r.patient_id,
        start: isoRequired(r.start),
        end: r.ended_at ? isoRequired(r.ended_at) : null,
        admissionId: r.admission_id,
        birthDate: r.birth_date,
        sex: r.sex,
        also: r as unknown as Also,
      }
    : null;
}

// Writes ---------------------------------------------------------------------------------------------------

/** Whether an exam of the catalogue exists (an act's link). */
export async function examExists(q: Queryable, examId: string) {
  const r = await q.execute(sql`select 1 from exam_catalogue where id = ${examId}`);
  return r.rows.length > 0;
}

/** Whether a medication presentation exists (an act's link). */
export async function presentationExists(q: Queryable, presentationId: string) {
  const r = await q.execute(sql`select 1 from medication_presentations where id = ${presentationId}`);
  return r.rows.length > 0;
}

export async function insertAct(q: Queryable, values: typeof medicalActs.$inferInsert): Promise<string> {
  const [act] = await q.insert(medicalActs).values(values).returning({ id: medicalActs.id });
  return act!.id;
}

export async function updateAct(q: Queryable, id: string, set: Partial<typeof medicalActs.$inferInsert>) {
  await q.update(medicalActs).set(set).where(sql`${medicalActs.id} = ${id}`);
}

/** Inserts tariffs: the id of the first. */
export async function insertTariffs(
  q: Queryable,
  values: (typeof actTariffs.$inferInsert)[],
): Promise<string> {
  const [t] = await q.insert(actTariffs).values(values).returning({ id: actTariffs.id });
  return t!.id;
}

/** Ends the day before `from` the act's tariff of the payer category that is in force on `from` (a new one follows). */
export async function closeTariffBefore(
  q: Queryable,
  actId: string,
  payerCategory: string,
  from: string,
  dayBefore: string,
) {
  await q.execute(sql`update act_tariffs set valid_to = ${dayBefore}::date
    where act_id = ${actId} and payer_category = ${payerCategory} and valid_from < ${from}::date
      and (valid_to is null or valid_to >= ${from}::date)`);
}

export async function insertPerformedAct(
  q: Queryable,
  values: typeof performedActs.$inferInsert,
): Promise<string> {
  const [row] = await q.insert(performedActs).values(values).returning({ id: performedActs.id });
  return row!.id;
}

/** What a cancellation checks of a performed act of the hospital, locked; null when there is none. */
export async function lockPerformedAct(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    patient_id: string;
    cancelled_at: unknown;
  }>(sql`select patient_id, cancelled_at
    from performed_acts where hospital_id = ${hospitalId} and id = ${id} for update`);
  return res.rows[0] ?? null;
}

/** Whether a performed act is on an invoice line (not removed). */
export async function isActBilled(q: Queryable, performedActId: string) {
  const billed = await q.execute(
    sql`select 1 from invoice_lines where performed_act_id = ${performedActId} and removed_at is null`,
  );
  return billed.rows.length > 0;
}

export async function markPerformedActCancelled(q: Queryable, id: string, by: string, reason: string) {
  await q.execute(sql`update performed_acts set cancelled_at = now(), cancelled_by = ${by},
    cancel_reason = ${reason} where id = ${id}`);
}
