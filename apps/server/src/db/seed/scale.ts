import { type SQL, sql } from 'drizzle-orm';
import { ensureMedicationReference } from '../../modules/pharmacy/medication-reference.js';
import { hasDirtyDays, markAllDays, refreshDirtyDays } from '../../modules/stats/summaries.repository.js';
import type { Db } from '../client.js';

/** Congolese and French names, with their accents, combined at random into synthetic patients. */
const FIRST_NAMES = [
  'Éloïse',
  'Grâce',
  'Bénédicte',
  'Thérèse',
  'Héritier',
  'Gloire',
  'Dieudonné',
  'Désiré',
  'Aimée',
  'Céline',
  'Françoise',
  'Joël',
  'Noël',
  'Rémy',
  'Océane',
  'Jean-Pierre',
  'Marie',
  'Joseph',
  'Patrick',
  'Sarah',
  'Esther',
  'Didier',
  'Ruth',
  'Michel',
  'Sylvie',
  'André',
  'Chantal',
  'Emmanuel',
  'Espérance',
  'Fidèle',
  'Merveille',
  'Prince',
  'Divine',
  'Christelle',
  'Jérémie',
  'Léa',
  'Chloé',
  'Hélène',
  'Gaëlle',
  'Benoît',
];
const LAST_NAMES = [
  'Mbuyi',
  'Kabongo',
  'Tshilombo',
  'Kasongo',
  'Ngalula',
  'Mukendi',
  'Kalala',
  'Ilunga',
  'Mwamba',
  'Lumbala',
  'Mbombo',
  'Tshibangu',
  'Kapinga',
  'Nzuzi',
  'Makiese',
  'Mavinga',
  'Lutete',
  'Mpiana',
  'Kiala',
  'Banza',
  'Lukusa',
  'Kalonji',
  'Tshibanda',
  'Kabila',
  'Ngoy',
  'Mutombo',
  'Kanku',
  'Kazadi',
  'Mulumba',
  'Tshisekedi',
  'Nkulu',
  'Kabeya',
  'Mbala',
  'Ndaye',
  'Bokele',
  'Lefèvre',
  'Dupont',
  'Moreau',
  'Girard',
  'Bérenger',
];

/**
 * Bulk-loads `count` synthetic patients into the first hospital, in batches of `generate_series` SQL (one
 * statement per batch, server-side), taking their record numbers from the hospital's sequence. Meant for
 * proving search speed (`npm run seed:scale -- --patients 1000000`); never run it on a real hospital.
 */
export async function seedScale(
  db: Db,
  count: number,
  onProgress: (done: number) => void = () => {},
  batch = 50_000,
): Promise<{ hospital: string; inserted: number }> {
  const hospital = await firstHospital(db);
  const first = sql`${`{${FIRST_NAMES.map((n) => `"${n}"`).join(',')}}`}::text[]`;
  const last = sql`${`{${LAST_NAMES.map((n) => `"${n}"`).join(',')}}`}::text[]`;
  let done = 0;
  while (done < count) {
    const n = Math.min(batch, count - done);
    await db.transaction(async (tx) => {
      const seq = await tx.execute<{ value: number }>(sql`
        insert into hospital_sequences (hospital_id, name, value) values (${hospital.id}, 'patient_record', ${n})
        on conflict (hospital_id, name) do update set value = hospital_sequences.value + ${n}
        returning value`);
      const startAt = Number(seq.rows[0]!.value) - n + 1;
      await tx.execute(sql`
        insert into patients (id, hospital_id, record_number, first_name, last_name, sex, birth_date,
          birth_date_estimated, phone, allergies)
        select gen_random_uuid(), ${hospital.id},
          ${hospital.code} || '-' || lpad(n::text, greatest(6, length(n::text)), '0'),
          (${first})[1 + floor(random() * ${FIRST_NAMES.length})::int],
          (${last})[1 + floor(random() * ${LAST_NAMES.length})::int]
            || case when random() < 0.3 then ' ' || (${last})[1 + floor(random() * ${LAST_NAMES.length})::int] else '' end,
          case when random() < 0.5 then 'F'::sex else 'M'::sex end,
          date '1930-01-01' + floor(random() * 33000)::int,
          random() < 0.15,
          case when random() < 0.7 then '+2438' || lpad(floor(random() * 100000000)::text, 8, '0') end,
          case when random() < 0.05 then '{Pénicilline}'::text[] else '{}'::text[] end
        from generate_series(${startAt}::int, ${startAt + n - 1}::int) n`);
    });
    done += n;
    onProgress(done);
  }
  await db.execute(sql`analyze patients`);
  return { hospital: hospital.code, inserted: done };
}

/** The first hospital (the demo's HGG), which the scale seeds fill. */
async function firstHospital(db: Db): Promise<{ id: string; code: string }> {
  const h = await db.execute<{ id: string; code: string }>(
    sql`select id, code from hospitals order by created_at, id limit 1`,
  );
  const hospital = h.rows[0];
  if (!hospital) throw new Error('No hospital: seed the demo first (npm run seed:demo).');
  return hospital;
}

/**
 * Gives the first hospital at least `total` active beds (wards of 10 rooms × 2 beds in its clinical
 * departments) and fills `occupancy` of the free ones with admitted stays of patients without an open stay,
 * plus `pending` stays waiting for a bed: the 500-bed floor of the bed-board bench
 * (`npm run seed:scale -- --beds 500`). Idempotent in beds; each run fills what is free. Never on a real
 * hospital.
 */
export async function seedScaleBeds(
  db: Db,
  total: number,
  occupancy = 0.8,
  pending = 20,
): Promise<{ hospital: string; beds: number; admitted: number }> {
  const hospital = await firstHospital(db);
  return db.transaction(async (tx) => {
    const count = async () =>
      Number(
        (
          await tx.execute<{
            n: number;
          }>(sql`select count(*)::int as n from beds b join rooms r on r.id = b.room_id
            join wards w on w.id = r.ward_id
            where b.hospital_id = ${hospital.id} and b.is_active and r.is_active and w.is_active`)
        ).rows[0]!.n,
      );
    const deps = await tx.execute<{ id: string; code: string }>(sql`select id, code from departments
      where hospital_id = ${hospital.id} and is_active
        and kind in ('clinical', 'emergency', 'maternity', 'surgery', 'pediatrics') order by code`);
    let n = 0;
    while ((await count()) < total) {
      const dep = deps.rows[n % deps.rows.length]!;
      n += 1;
      const code = `${dep.code}-S${n}`;
      const ward = await tx.execute<{
        id: string;
      }>(sql`insert into wards (id, hospital_id, department_id, name, code)
        values (gen_random_uuid(), ${hospital.id}, ${dep.id}, ${`Unité ${code}`}, ${code})
        on conflict (hospital_id, code) do nothing returning id`);
      const wardId = ward.rows[0]?.id;
      if (!wardId) continue;
      await tx.execute(sql`insert into rooms (id, hospital_id, ward_id, name)
        select gen_random_uuid(), ${hospital.id}, ${wardId}, ${code} || '-' || lpad(r::text, 2, '0')
        from generate_series(1, 10) r`);
      await tx.execute(sql`insert into beds (id, hospital_id, room_id, label, sort_order)
        select gen_random_uuid(), ${hospital.id}, r.id, r.name || '-' || l.label, l.n
        from rooms r cross join (values (1, 'A'), (2, 'B')) l(n, label) where r.ward_id = ${wardId}`);
    }
    const doctor = await tx.execute<{ id: string }>(sql`select user_id as id from memberships
      where hospital_id = ${hospital.id} and is_active and upper(role_code) in ('DOCTOR', 'HEAD_DOCTOR')
      order by created_at limit 1`);
    const doctorId = doctor.rows[0]?.id;
    if (!doctorId) throw new Error('No doctor in the hospital: seed the demo first.');
    const free = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from beds where hospital_id = ${hospital.id} and status = 'free' and is_active`,
    );
    const fill = Math.floor(Number(free.rows[0]!.n) * occupancy);
    // Stays in free beds, one per patient without an open stay, admitted over the last ten days.
    const admitted = await tx.execute(sql`with free as (
        select b.id as bed_id, w.department_id, row_number() over (order by b.id) as rn
        from beds b join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
        where b.hospital_id = ${hospital.id} and b.status = 'free' and b.is_active and r.is_active and w.is_active
        limit ${fill}),
      pats as (
        select p.id, row_number() over (order by p.id) as rn from patients p
        where p.hospital_id = ${hospital.id} and p.deceased_at is null and p.archived_at is null
          and not exists (select 1 from hospitalizations s where s.patient_id = p.id
            and s.status in ('pending_bed', 'admitted'))
        limit ${fill + pending}),
      ins as (
        insert into hospitalizations (id, hospital_id, patient_id, department_id, doctor_id, status, reason,
          bed_id, requested_at, admitted_at, expected_days)
        select gen_random_uuid(), ${hospital.id}, pats.id, free.department_id, ${doctorId}, 'admitted',
          'Hospitalisation (jeu de données de charge)', free.bed_id, t.at, t.at, 5
        from free join pats using (rn)
        cross join lateral (select now() - (random() * interval '10 days') as at) t
        returning id, bed_id, admitted_at)
      insert into bed_assignments (id, hospital_id, hospitalization_id, bed_id, started_at)
      select gen_random_uuid(), ${hospital.id}, id, bed_id, admitted_at from ins returning bed_id`);
    await tx.execute(sql`update beds set status = 'occupied' where id in (select bed_id from hospitalizations
      where hospital_id = ${hospital.id} and status = 'admitted' and bed_id is not null)`);
    const waiting = await tx.execute<{ n: number }>(sql`select count(*)::int as n from hospitalizations
      where hospital_id = ${hospital.id} and status = 'pending_bed'`);
    const missing = Math.max(0, pending - Number(waiting.rows[0]!.n));
    await tx.execute(sql`insert into hospitalizations (id, hospital_id, patient_id, department_id, doctor_id,
        status, reason)
      select gen_random_uuid(), ${hospital.id}, p.id, ${deps.rows[0]!.id}, ${doctorId}, 'pending_bed',
        'En attente de lit (jeu de données de charge)'
      from patients p where p.hospital_id = ${hospital.id} and p.deceased_at is null and p.archived_at is null
        and not exists (select 1 from hospitalizations s where s.patient_id = p.id
          and s.status in ('pending_bed', 'admitted'))
      order by p.id limit ${missing}`);
    for (const table of ['wards', 'rooms', 'beds', 'hospitalizations', 'bed_assignments'])
      await tx.execute(sql.raw(`analyze ${table}`));
    return { hospital: hospital.code, beds: await count(), admitted: admitted.rows.length };
  });
}

/**
 * The pharmacy at scale (issue 18's bench): tops the reference up to `presentations` active presentations
 * (synthetic medicines of five presentations each) and the first hospital's first pharmacy up to `lots` lots
 * with units, each received through the ledger (the trigger fills the lots and the stock summaries). Idempotent:
 * only what is missing is added.
 */
export async function seedScalePharmacy(
  db: Db,
  presentations = 2_000,
  lots = 20_000,
): Promise<{ hospital: string; presentations: number; lots: number }> {
  const hospital = await firstHospital(db);
  await ensureMedicationReference(db);
  return db.transaction(async (tx) => {
    const pha = await tx.execute<{ id: string }>(sql`select id from departments
      where hospital_id = ${hospital.id} and kind = 'pharmacy' and is_active order by code, id limit 1`);
    const pharmacy = pha.rows[0]?.id;
    if (!pharmacy) throw new Error('No pharmacy department in the first hospital.');
    const by = await tx.execute<{ id: string }>(
      sql`select user_id as id from memberships where hospital_id = ${hospital.id} order by created_at limit 1`,
    );
    const count = async (q: ReturnType<typeof sql>) =>
      Number((await tx.execute<{ n: number }>(q)).rows[0]!.n);
    const missing =
      presentations -
      (await count(sql`select count(*)::int as n from medication_presentations where is_active`));
    if (missing > 0) {
      const start = await count(sql`select count(*)::int as n from medications where code like 'scale-%'`);
      const meds = Math.ceil(missing / 5);
      await tx.execute(sql`insert into medications (id, code, inn_fr, inn_en, atc_code, group_fr, group_en,
          search_text, source)
        select gen_random_uuid(), 'scale-' || n, 'scalomycine ' || n, 'scalomycin ' || n,
          'Z' || lpad((n % 100)::text, 2, '0') || 'AA' || lpad((n % 100)::text, 2, '0'), 'Synthétiques', 'Synthetic',
          'scalomycine ' || n || ' scalomycin ' || n, 'imported'
        from generate_series(${start + 1}::int, ${start + meds}::int) n`);
      await tx.execute(sql`insert into medication_presentations (id, medication_id, code, form, strength, route,
          unit, sort_order)
        select gen_random_uuid(), m.id, m.code || ':tablet:oral:' || k * 100 || ' mg', 'tablet', k * 100 || ' mg',
          'oral', 'tablet', k
        from medications m cross join generate_series(1, 5) k
        where m.code like 'scale-%' and not exists (select 1 from medication_presentations p where p.medication_id = m.id)`);
    }
    const lotsMissing =
      lots - (await count(sql`select count(*)::int as n from stock_lots where pharmacy_id = ${pharmacy}`));
    if (lotsMissing > 0) {
      // Lots spread over every active presentation, expiring from last month to three years ahead.
      await tx.execute(sql`with p as (select id, (row_number() over (order by id) - 1)::int as i
            from medication_presentations where is_active),
          c as (select count(*)::int as n from p)
        insert into stock_lots (id, hospital_id, pharmacy_id, presentation_id, lot_number, expiry_date, unit_cost)
        select gen_random_uuid(), ${hospital.id}, ${pharmacy}, p.id, 'SC-' || s.n || '-' || left(p.id::text, 8),
          current_date + ((s.n * 37) % 1125 - 30), 100
        from generate_series(1, ${lotsMissing}::int) s(n) cross join c join p on p.i = s.n % c.n
        on conflict do nothing`);
      await tx.execute(sql`insert into stock_movements (id, hospital_id, pharmacy_id, lot_id, presentation_id, kind,
          quantity, reference, reason, by_id)
        select gen_random_uuid(), l.hospital_id, l.pharmacy_id, l.id, l.presentation_id, 'receipt',
          10 + (abs(hashtext(l.id::text)) % 490), 'BL-SCALE', 'seed:scale', ${by.rows[0]!.id}
        from stock_lots l where l.pharmacy_id = ${pharmacy}
          and not exists (select 1 from stock_movements m where m.lot_id = l.id)`);
    }
    await tx.execute(sql`analyze stock_lots`);
    await tx.execute(sql`analyze stock_items`);
    await tx.execute(sql`analyze medications`);
    return {
      hospital: hospital.code,
      presentations: await count(
        sql`select count(*)::int as n from medication_presentations where is_active`,
      ),
      lots: await count(sql`select count(*)::int as n from stock_lots where pharmacy_id = ${pharmacy}`),
    };
  });
}

/** The reason of the visits `seedScaleRecords` adds: how it finds its two patients again. */
const LONG_RECORD_REASON = 'Suivi au long cours (jeu de données de charge)';

/**
 * Two records of the first hospital for the large-record bench (issue 16, `npm run seed:scale -- --records`):
 * one patient with `large` visits and one with `small`, each visit with a completed consultation and a
 * validated exam result (the results of a validated demo order). The patients are the first ones (by record
 * number) without any visit; later runs find them again by their visits' reason and only top them up. Never
 * on a real hospital.
 */
export async function seedScaleRecords(
  db: Db,
  sizes: { large: number; small: number } = { large: 500, small: 5 },
): Promise<{
  hospital: string;
  large: { id: string; visits: number };
  small: { id: string; visits: number };
}> {
  const hospital = await firstHospital(db);
  return db.transaction(async (tx) => {
    const marked = await tx.execute<{
      patient_id: string;
      n: number;
    }>(sql`select patient_id, count(*)::int as n
      from admissions where hospital_id = ${hospital.id} and reason = ${LONG_RECORD_REASON}
      group by patient_id order by n desc, patient_id limit 2`);
    const chosen = marked.rows.map((r) => r.patient_id);
    if (chosen.length < 2) {
      const fresh = await tx.execute<{ id: string }>(sql`select p.id from patients p
        where p.hospital_id = ${hospital.id} and p.archived_at is null and p.deceased_at is null
          and not exists (select 1 from admissions a where a.patient_id = p.id)
          and not (p.id = any(${`{${chosen.join(',')}}`}::uuid[]))
        order by p.record_number limit ${2 - chosen.length}`);
      chosen.push(...fresh.rows.map((r) => r.id));
    }
    if (chosen.length < 2)
      throw new Error('Not enough patients without visits: run seed:scale --patients first.');
    const doctor = await tx.execute<{ id: string }>(sql`select user_id as id from memberships
      where hospital_id = ${hospital.id} and is_active and upper(role_code) = 'DOCTOR'
      order by created_at, user_id limit 1`);
    const template = await tx.execute<{ id: string }>(sql`select id from exam_orders
      where hospital_id = ${hospital.id} and status = 'validated' and results is not null limit 1`);
    const department = await tx.execute<{ id: string }>(sql`select id from departments
      where hospital_id = ${hospital.id} and is_active and kind = 'clinical' order by code limit 1`);
    const doctorId = doctor.rows[0]?.id;
    const exam = template.rows[0];
    const departmentId = department.rows[0]?.id;
    if (!doctorId || !exam || !departmentId)
      throw new Error('No doctor, validated exam or clinical department: seed the demo first.');
    const out: { id: string; visits: number }[] = [];
    const plan: [string, number][] = [
      [chosen[0]!, sizes.large],
      [chosen[1]!, sizes.small],
    ];
    for (const [slot, [patientId, want]] of plan.entries()) {
      const have = Number(marked.rows.find((r) => r.patient_id === patientId)?.n ?? 0);
      // Visit k (1…want) happened k days ago; queue numbers far above a day's real ones (slot 1 or 2).
      await tx.execute(sql`with visits as (
          insert into admissions (id, hospital_id, patient_id, department_id, admission_type, reason, status,
            queue_date, queue_number, admitted_at, closed_at, created_by)
          select gen_random_uuid(), ${hospital.id}, ${patientId}, ${departmentId}, 'outpatient',
            ${LONG_RECORD_REASON}, 'completed', (now() - k * interval '1 day')::date, ${(slot + 1) * 100_000} + k,
            now() - k * interval '1 day', now() - k * interval '1 day' + interval '45 minutes', ${doctorId}
          from generate_series(${have + 1}::int, ${want}::int) k
          returning id, admitted_at),
        seen as (
          insert into consultations (id, hospital_id, admission_id, patient_id, department_id, doctor_id,
            status, reason, history, examination, conclusion, plan, outcome, version, started_at, completed_at,
            completed_by, created_by)
          select gen_random_uuid(), ${hospital.id}, v.id, ${patientId}, ${departmentId}, ${doctorId},
            'completed', 'Contrôle', 'Suivi régulier, pas de plainte nouvelle.', 'Examen clinique sans particularité.',
            'État stable.', 'Poursuivre le traitement, revoir dans un mois.', 'discharge', 6,
            v.admitted_at + interval '10 minutes', v.admitted_at + interval '40 minutes', ${doctorId}, ${doctorId}
          from visits v
          returning id, admission_id, started_at)
        insert into exam_orders (id, hospital_id, order_number, patient_id, consultation_id, admission_id, exam_id,
          department_id, status, results, report, abnormal, requested_by, requested_at, resulted_by, resulted_at,
          validated_by, validated_at, acknowledged_at)
        select gen_random_uuid(), ${hospital.id}, ${hospital.code} || '-EXL-' || left(s.id::text, 8) || '-' ||
            row_number() over (order by s.started_at), ${patientId}, s.id, s.admission_id, t.exam_id, t.department_id,
          'validated', t.results, t.report, t.abnormal, ${doctorId}, s.started_at, ${doctorId},
          s.started_at + interval '2 hours', ${doctorId}, s.started_at + interval '3 hours',
          s.started_at + interval '1 day'
        from seen s cross join (select exam_id, department_id, results, report, abnormal from exam_orders
          where hospital_id = ${hospital.id} and status = 'validated' and results is not null
          order by created_at, id limit 1) t`);
      out.push({ id: patientId, visits: Math.max(have, want) });
    }
    for (const table of ['admissions', 'consultations', 'exam_orders'])
      await tx.execute(sql.raw(`analyze ${table}`));
    return { hospital: hospital.code, large: out[0]!, small: out[1]! };
  });
}

/** The e-mail addresses of the staff `seedScaleStaff` adds (`bench-nurse-0001@greensen.test`…). */
export const BENCH_NURSE_EMAIL = (n: number) => `bench-nurse-${String(n).padStart(4, '0')}@greensen.test`;

/**
 * At least `total` nurses of the whole first hospital (no department), with the demo password (the hash of
 * the demo nurse's): the users of the sockets bench (issue 16, `npm run seed:scale -- --nurses N`); every
 * patient waiting for a bed is told to each of them. Idempotent. Never on a real hospital.
 */
export async function seedScaleNurses(db: Db, total: number): Promise<{ hospital: string; nurses: number }> {
  const hospital = await firstHospital(db);
  return db.transaction(async (tx) => {
    const model = await tx.execute<{ password_hash: string }>(
      sql`select password_hash from users where email = 'infirmier@greensen.test'`,
    );
    const hash = model.rows[0]?.password_hash;
    if (!hash) throw new Error('No demo nurse: seed the demo first.');
    await tx.execute(sql`insert into users (id, email, username, first_name, last_name, password_hash,
        language_preference, email_verified_at)
      select gen_random_uuid(), 'bench-nurse-' || lpad(n::text, 4, '0') || '@greensen.test',
        'bench-nurse-' || lpad(n::text, 4, '0'), 'Infirmière', 'Banc ' || n, ${hash}, 'fr', now()
      from generate_series(1, ${total}::int) n
      on conflict do nothing`);
    await tx.execute(sql`insert into memberships (id, user_id, hospital_id, department_id, role_code)
      select gen_random_uuid(), u.id, ${hospital.id}, null, 'NURSE' from users u
      where u.email like 'bench-nurse-%@greensen.test'
      on conflict do nothing`);
    const count = await tx.execute<{ n: number }>(sql`select count(*)::int as n from memberships m
      join users u on u.id = m.user_id where m.hospital_id = ${hospital.id} and m.is_active
        and u.email like 'bench-nurse-%@greensen.test'`);
    return { hospital: hospital.code, nurses: Number(count.rows[0]!.n) };
  });
}

/**
 * Nursing care at scale (issue 20's bench): a ward of `patients` stays in a new ward of the department of the
 * demo's emergency nurse (infirmier@), each with a care plan and three orders (vitals every 4 h, positioning
 * every 3 h, an IV line every 8 h) materialised over a week (3.5 days back, 3.5 ahead), the past ones done.
 * Idempotent: a second run adds nothing.
 */
export async function seedScaleCare(
  db: Db,
  patients = 40,
): Promise<{ hospital: string; plans: number; executions: number }> {
  const hospital = await firstHospital(db);
  return db.transaction(async (tx) => {
    const nurse = await tx.execute<{
      id: string;
      department_id: string;
    }>(sql`select m.user_id as id, m.department_id
      from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospital.id} and u.email = 'infirmier@greensen.test' and m.department_id is not null
      limit 1`);
    const n = nurse.rows[0];
    if (!n) throw new Error('No emergency nurse: seed the demo first.');
    const code = 'SOINS-BENCH';
    const existing = await tx.execute<{ id: string }>(
      sql`select id from wards where hospital_id = ${hospital.id} and code = ${code}`,
    );
    if (!existing.rows[0]) {
      const ward = await tx.execute<{
        id: string;
      }>(sql`insert into wards (id, hospital_id, department_id, name, code)
        values (gen_random_uuid(), ${hospital.id}, ${n.department_id}, 'Unité de soins (charge)', ${code}) returning id`);
      const wardId = ward.rows[0]!.id;
      await tx.execute(sql`insert into rooms (id, hospital_id, ward_id, name)
        select gen_random_uuid(), ${hospital.id}, ${wardId}, 'S-' || lpad(r::text, 2, '0')
        from generate_series(1, ${Math.ceil(patients / 2)}) r`);
      await tx.execute(sql`insert into beds (id, hospital_id, room_id, label, sort_order)
        select gen_random_uuid(), ${hospital.id}, r.id, r.name || '-' || l.label, l.n
        from rooms r cross join (values (1, 'A'), (2, 'B')) l(n, label) where r.ward_id = ${wardId}`);
      const doctor = await tx.execute<{ id: string }>(sql`select user_id as id from memberships
        where hospital_id = ${hospital.id} and is_active and upper(role_code) in ('DOCTOR', 'HEAD_DOCTOR')
        order by created_at limit 1`);
      // Synthetic patients for the ward (their own, so that no other stay is disturbed).
      await tx.execute(sql`insert into patients (id, hospital_id, record_number, first_name, last_name, sex, birth_date)
        select gen_random_uuid(), ${hospital.id}, ${`${hospital.code}-SOIN-`} || lpad(g::text, 4, '0'),
          'Patient' || g, 'Soins', case when g % 2 = 0 then 'F' else 'M' end::sex, date '1960-01-01' + g * 200
        from generate_series(1, ${patients}) g`);
      await tx.execute(sql`with free as (
          select b.id as bed_id, row_number() over (order by b.label) as rn
          from beds b join rooms r on r.id = b.room_id where r.ward_id = ${wardId} limit ${patients}),
        pats as (select id, row_number() over (order by record_number) as rn from patients
          where hospital_id = ${hospital.id} and record_number like ${`${hospital.code}-SOIN-%`}),
        ins as (
          insert into hospitalizations (id, hospital_id, patient_id, department_id, doctor_id, status, reason,
            bed_id, requested_at, admitted_at, expected_days)
          select gen_random_uuid(), ${hospital.id}, pats.id, ${n.department_id}, ${doctor.rows[0]!.id}, 'admitted',
            'Surveillance (jeu de données de charge)', free.bed_id, now() - interval '4 days', now() - interval '4 days', 7
          from free join pats using (rn) returning id, bed_id, admitted_at)
        insert into bed_assignments (id, hospital_id, hospitalization_id, bed_id, started_at)
        select gen_random_uuid(), ${hospital.id}, id, bed_id, admitted_at from ins`);
      await tx.execute(sql`update beds set status = 'occupied' where id in (select bed_id from hospitalizations
        where hospital_id = ${hospital.id} and status = 'admitted' and bed_id is not null)`);
      await tx.execute(sql`insert into care_plans (id, hospital_id, patient_id, hospitalization_id, created_by, created_at)
        select gen_random_uuid(), s.hospital_id, s.patient_id, s.id, ${n.id}, s.requested_at
        from hospitalizations s join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id
        where r.ward_id = ${wardId}`);
      // Three orders per plan over the week, and their executions (every slot from 3.5 days back to 3.5 ahead).
      await tx.execute(sql`insert into care_orders (id, hospital_id, plan_id, kind, title, priority, schedule,
          start_at, end_at, ordered_by, ordered_at, materialized_until)
        select gen_random_uuid(), cp.hospital_id, cp.id, o.kind::care_order_kind, o.title, o.priority::care_priority,
          jsonb_build_object('kind', 'every_hours', 'hours', o.hours), date_trunc('hour', now()) - interval '84 hours',
          date_trunc('hour', now()) + interval '84 hours', ${n.id}, now() - interval '84 hours',
          date_trunc('hour', now()) + interval '84 hours'
        from care_plans cp join hospitalizations s on s.id = cp.hospitalization_id
          join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id
        cross join (values ('vitals', 'Constantes', 'normal', 4), ('positioning', 'Retournement', 'normal', 3),
          ('iv_line', 'Voie veineuse', 'high', 8)) o(kind, title, priority, hours)
        where r.ward_id = ${wardId}`);
      await tx.execute(sql`insert into care_executions (id, hospital_id, plan_id, order_id, patient_id, slot_at,
          scheduled_at, priority, status, done_by, done_at, recorded_at, assignee_id)
        select gen_random_uuid(), o.hospital_id, o.plan_id, o.id, cp.patient_id, t, t,
          case o.priority when 'high' then 2 else 3 end,
          (case when t < now() - interval '1 hour' then 'done' else 'scheduled' end)::care_execution_status,
          case when t < now() - interval '1 hour' then ${n.id}::uuid end,
          case when t < now() - interval '1 hour' then t + interval '10 minutes' end,
          case when t < now() - interval '1 hour' then t + interval '12 minutes' end,
          case when (extract(epoch from t)::bigint / 3600) % 3 = 0 then null else ${n.id}::uuid end
        from care_orders o join care_plans cp on cp.id = o.plan_id
        cross join lateral generate_series(o.start_at, o.end_at - interval '1 second',
          ((o.schedule ->> 'hours') || ' hours')::interval) t
        where o.hospital_id = ${hospital.id} and o.title in ('Constantes', 'Retournement', 'Voie veineuse')
          and o.ordered_by = ${n.id} and o.plan_id in (select cp2.id from care_plans cp2
            join hospitalizations s on s.id = cp2.hospitalization_id join beds b on b.id = s.bed_id
            join rooms r on r.id = b.room_id where r.ward_id = ${wardId})
        on conflict (order_id, slot_at) do nothing`);
      for (const table of ['care_plans', 'care_orders', 'care_executions', 'hospitalizations', 'patients'])
        await tx.execute(sql.raw(`analyze ${table}`));
    }
    const counts = await tx.execute<{ plans: number; executions: number }>(sql`select
        (select count(*)::int from care_plans cp join hospitalizations s on s.id = cp.hospitalization_id
          join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
          where w.code = ${code} and w.hospital_id = ${hospital.id}) as plans,
        (select count(*)::int from care_executions e join care_plans cp on cp.id = e.plan_id
          join hospitalizations s on s.id = cp.hospitalization_id join beds b on b.id = s.bed_id
          join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
          where w.code = ${code} and w.hospital_id = ${hospital.id}) as executions`);
    return {
      hospital: hospital.code,
      plans: Number(counts.rows[0]!.plans),
      executions: Number(counts.rows[0]!.executions),
    };
  });
}

/** The reason of the bench's billed visits and of its 30-day stay (what makes `seedScaleBilling` idempotent). */
const BENCH_BILLING_REASON = 'Banc d’essai de facturation';

/**
 * Billing at scale (issue 21's bench, `npm run seed:scale -- --billing N`): at least `total` issued invoices in the
 * first hospital (each of its own completed outpatient visit of a random patient, created over the last three
 * years), and a 30-day stay with about 300 performed acts (30 bed-days derived at assembly, 270 nursing and
 * medicine acts) whose invoice the bench assembles. Needs the demo's catalogue (`seed:demo`). Idempotent.
 */
export async function seedScaleBilling(
  db: Db,
  total: number,
): Promise<{ hospital: string; invoices: number; stay: string; acts: number }> {
  const hospital = await firstHospital(db);
  const facts = await db.execute<{
    patients: string[] | string;
    department: string;
    doctor: string;
    have: number;
  }>(
    sql`select (select array_agg(id order by id) from (select id from patients where hospital_id = ${hospital.id}
          and archived_at is null limit 100000) p) as patients,
        (select id from departments where hospital_id = ${hospital.id} and kind = 'clinical' order by code limit 1) as department,
        (select user_id from memberships where hospital_id = ${hospital.id} and upper(role_code) = 'SECRETARY'
          order by created_at, user_id limit 1) as doctor,
        (select count(*)::int from admissions where hospital_id = ${hospital.id} and reason = ${BENCH_BILLING_REASON}
          and admission_type = 'outpatient') as have`,
  );
  const f = facts.rows[0]!;
  const patients =
    typeof f.patients === 'string' ? f.patients.replace(/[{}]/g, '').split(',') : (f.patients ?? []);
  if (!patients.length || !f.department || !f.doctor)
    throw new Error('Seed the demo first (npm run seed:demo).');
  const pids = `{${patients.join(',')}}`;
  // 25,000 a transaction, loaded with the triggers off (`session_replication_role`, as the reporting seed): the
  // per-row trigger marking the reporting's days (decision 0038) looked up each patient's next visit and made
  // most of the time (1,000,000 invoices: ~15 minutes before, see docs/performance.md). The days are marked once
  // below. Each statement ends within the client's 30 s query timeout on a loaded machine.
  const BATCH = 25_000;
  const added = Math.max(0, total - Number(f.have));
  for (let from = Number(f.have) + 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      // Visit k: a random patient, some day of the last three years; queue numbers far above a day's real ones.
      await tx.execute(sql`with v as (
          insert into admissions (id, hospital_id, patient_id, department_id, admission_type, reason, status,
            queue_date, queue_number, admitted_at, closed_at, created_by)
          select gen_random_uuid(), ${hospital.id}, (${pids}::uuid[])[(1 + (k::bigint * 7919) % ${patients.length})::int],
            ${f.department}, 'outpatient', ${BENCH_BILLING_REASON}, 'completed',
            (now() - (k % 1095) * interval '1 day')::date, 500000 + k,
            now() - (k % 1095) * interval '1 day', now() - (k % 1095) * interval '1 day' + interval '1 hour',
            ${f.doctor}
          from generate_series(${from}::int, ${to}::int) k
          returning id, patient_id, admitted_at, queue_number)
        insert into invoices (id, hospital_id, number, kind, status, patient_id, admission_id, currency,
          payer_category, total, payer_share, patient_share, paid, issued_at, issued_by, created_by, created_at,
          updated_at)
        select gen_random_uuid(), ${hospital.id}, 'FAC-' || ${hospital.code} || '-BENCH-' || (v.queue_number - 500000),
          'invoice', 'issued', v.patient_id, v.id, h.currency, 'private', 5000 + (v.queue_number % 20) * 500, 0,
          5000 + (v.queue_number % 20) * 500, case when v.queue_number % 3 = 0 then 0 else 5000 end,
          v.admitted_at + interval '50 minutes', ${f.doctor}, ${f.doctor}, v.admitted_at + interval '45 minutes',
          v.admitted_at + interval '50 minutes'
        from v join hospitals h on h.id = ${hospital.id}`);
    });
  }
  // The 30-day stay: a patient in the first clinical department since 30 days, 9 acts a day besides the bed-day.
  let stay = (
    await db.execute<{
      id: string;
    }>(sql`select s.id from hospitalizations s where s.hospital_id = ${hospital.id}
      and s.reason = ${BENCH_BILLING_REASON} limit 1`)
  ).rows[0]?.id;
  if (!stay) {
    stay = await db.transaction(async (tx) => {
      const patient = await tx.execute<{ id: string }>(sql`select p.id from patients p
        where p.hospital_id = ${hospital.id} and p.archived_at is null and p.deceased_at is null
          and not exists (select 1 from hospitalizations s where s.patient_id = p.id)
        order by p.record_number desc limit 1`);
      const patientId = patient.rows[0]?.id;
      if (!patientId) throw new Error('No patient without a stay: run seed:scale --patients first.');
      const doctor = await tx.execute<{ id: string }>(sql`select user_id as id from memberships
        where hospital_id = ${hospital.id} and is_active and upper(role_code) = 'DOCTOR' order by created_at, user_id limit 1`);
      const s = await tx.execute<{
        id: string;
      }>(sql`insert into hospitalizations (id, hospital_id, patient_id,
          department_id, doctor_id, status, reason, requested_at, admitted_at, ended_at, discharge_mode)
        values (gen_random_uuid(), ${hospital.id}, ${patientId}, ${f.department}, ${doctor.rows[0]!.id}, 'discharged',
          ${BENCH_BILLING_REASON}, now() - interval '30 days', now() - interval '30 days', now(), 'home')
        returning id`);
      const id = s.rows[0]!.id;
      await tx.execute(sql`insert into performed_acts (id, hospital_id, patient_id, act_id, hospitalization_id,
          quantity, source, performed_at, performed_by)
        select gen_random_uuid(), ${hospital.id}, ${patientId}, ma.id, ${id}, 1 + (d % 3), 'manual',
          now() - interval '30 days' + d * interval '1 day' + (ma.rn * interval '1 hour'), ${doctor.rows[0]!.id}
        from generate_series(0, 29) d
        cross join (select id, row_number() over (order by code) as rn from medical_acts
          where hospital_id = ${hospital.id} and category in ('nursing', 'medicine') and is_active
          order by code limit 9) ma`);
      return id;
    });
  }
  // What the triggers would have marked: every day of the three years of visits (the reporting rebuilds them).
  if (added > 0)
    await db.execute(sql`insert into stats_dirty_days (hospital_id, day)
      select ${hospital.id}, (d at time zone h.time_zone)::date
      from hospitals h, generate_series(now() - interval '1095 days', now(), interval '1 day') d
      where h.id = ${hospital.id} on conflict do nothing`);
  // Vacuumed as well as analysed, as autovacuum leaves a table that stopped growing (its visibility map set).
  for (const table of ['admissions', 'invoices', 'performed_acts'])
    await db.execute(sql.raw(`${added > 0 ? 'vacuum ' : ''}analyze ${table}`));
  // The summaries of those days built here, as the reporting's load does: left to the app's job, their rebuild
  // (about four minutes at 1,000,000 invoices, in one transaction) ran beside every bench run that started a
  // server on this database and was stopped with it, never done. A later run finds nothing to do.
  if (await hasDirtyDays(db, [hospital.id])) await refreshDirtyDays(db, [hospital.id]);
  const counts = await db.execute<{ invoices: number; acts: number }>(sql`select
      (select count(*)::int from admissions where hospital_id = ${hospital.id} and reason = ${BENCH_BILLING_REASON}
        and admission_type = 'outpatient') as invoices,
      (select count(*)::int from performed_acts where hospitalization_id = ${stay}) as acts`);
  return { hospital: hospital.code, invoices: counts.rows[0]!.invoices, stay, acts: counts.rows[0]!.acts };
}

/**
 * Appointments at scale (issue 22's bench): a clinic department `CNS` of the first hospital with `providers` doctors,
 * each with a weekly schedule (Monday to Friday, 08:00–12:00 and 14:00–17:00, 15-minute slots), and about half of
 * their slots of the next 30 days booked for existing patients (slot counters included). Idempotent.
 */
export async function seedScaleAppointments(
  db: Db,
  providers = 50,
): Promise<{ hospital: string; department: string; providers: number; appointments: number }> {
  const hospital = await firstHospital(db);
  return db.transaction(async (tx) => {
    const model = await tx.execute<{ password_hash: string }>(
      sql`select password_hash from users where email = 'medecin@greensen.test'`,
    );
    const hash = model.rows[0]?.password_hash;
    if (!hash) throw new Error('No demo doctor: seed the demo first.');
    let dept = (
      await tx.execute<{ id: string }>(
        sql`select id from departments where hospital_id = ${hospital.id} and code = 'CNS'`,
      )
    ).rows[0]?.id;
    if (!dept) {
      dept = (
        await tx.execute<{ id: string }>(sql`insert into departments (id, hospital_id, name, code, kind)
          values (gen_random_uuid(), ${hospital.id}, 'Consultations externes', 'CNS', 'clinical') returning id`)
      ).rows[0]!.id;
      await tx.execute(sql`insert into users (id, email, username, first_name, last_name, password_hash,
          language_preference, email_verified_at)
        select gen_random_uuid(), 'bench-doctor-' || lpad(n::text, 3, '0') || '@greensen.test',
          'bench-doctor-' || lpad(n::text, 3, '0'), 'Docteur', 'Banc ' || n, ${hash}, 'fr', now()
        from generate_series(1, ${providers}::int) n on conflict do nothing`);
      await tx.execute(sql`insert into memberships (id, user_id, hospital_id, department_id, role_code)
        select gen_random_uuid(), u.id, ${hospital.id}, ${dept}, 'DOCTOR' from users u
        where u.email like 'bench-doctor-%@greensen.test' on conflict do nothing`);
      const sessions = JSON.stringify(
        ['mon', 'tue', 'wed', 'thu', 'fri'].flatMap((weekday) => [
          { weekday, start: '08:00', end: '12:00' },
          { weekday, start: '14:00', end: '17:00' },
        ]),
      );
      await tx.execute(sql`insert into provider_schedules (id, hospital_id, provider_id, department_id, sessions,
          slot_minutes, capacity, types, valid_from)
        select gen_random_uuid(), ${hospital.id}, u.id, ${dept}, ${sessions}::jsonb, 15, 1,
          '{new,follow_up}'::appointment_type[], current_date - 30
        from users u where u.email like 'bench-doctor-%@greensen.test'`);
      // Every other slot of the next 30 days (weekdays, in the hospital's time zone), for existing patients.
      await tx.execute(sql`with h as (select time_zone from hospitals where id = ${hospital.id}),
        slots as (
          select s.provider_id, ((d::date + t)::timestamp at time zone h.time_zone) as start_at,
            row_number() over () as rn
          from provider_schedules s, h, generate_series(current_date + 1, current_date + 30, interval '1 day') d,
            (select (time '08:00' + i * interval '15 minutes') as t from generate_series(0, 15) i
             union all select (time '14:00' + i * interval '15 minutes') from generate_series(0, 11) i) times
          where s.department_id = ${dept} and extract(isodow from d) between 1 and 5
            and ((extract(epoch from times.t)::int / 900) % 2) = 0),
        pats as (select id, row_number() over (order by id) as rn, count(*) over () as total from patients
          where hospital_id = ${hospital.id} and archived_at is null)
        insert into appointments (id, hospital_id, patient_id, provider_id, department_id, start_at, end_at,
          appointment_type, reason, status)
        select gen_random_uuid(), ${hospital.id}, p.id, slots.provider_id, ${dept}, slots.start_at,
          slots.start_at + interval '15 minutes', 'follow_up', 'Contrôle (jeu de données de charge)', 'booked'
        from slots join pats p on p.rn = 1 + (slots.rn % p.total)
        on conflict do nothing`);
      await tx.execute(sql`insert into appointment_slots (hospital_id, provider_id, start_at, capacity, booked)
        select ${hospital.id}, provider_id, start_at, 1, 1 from appointments
        where department_id = ${dept} and status = 'booked' on conflict do nothing`);
      for (const table of ['provider_schedules', 'appointments', 'appointment_slots'])
        await tx.execute(sql.raw(`analyze ${table}`));
    }
    const counts = await tx.execute<{ providers: number; appointments: number }>(sql`select
        (select count(*)::int from provider_schedules where department_id = ${dept}) as providers,
        (select count(*)::int from appointments where department_id = ${dept}) as appointments`);
    return {
      hospital: hospital.code,
      department: dept,
      providers: Number(counts.rows[0]!.providers),
      appointments: Number(counts.rows[0]!.appointments),
    };
  });
}

/** The reason of the reporting bench's visits: how later runs count what they already made. */
const REPORTING_REASON = 'Consultation (jeu de données des indicateurs)';
/** The diagnoses of the reporting bench, in rotation: malaria (confirmed or suspected), the common ones, IDSR. */
const REPORTING_CODES = [
  'B50.9',
  'B54',
  'J18.9',
  'A09.0',
  'E11.9',
  'I10',
  'J06.9',
  'N39.0',
  'K29.7',
  'D64.9',
  'A01.0',
  'B05.9',
  'A00.9',
  'L08.9',
  'R50.9',
];
/** The triage levels of the reporting bench (French scale): level, rank, target minutes. */
const REPORTING_LEVELS: [string, number, number][] = [
  ['2', 2, 20],
  ['3A', 3, 60],
  ['3B', 4, 90],
  ['4', 5, 120],
  ['5', 6, 240],
];

/** The reason of the reporting bench's stays. */
const REPORTING_STAY = 'Hospitalisation (jeu de données des indicateurs)';
/** The tables the reporting bench loads (their secondary indexes are rebuilt after a large load). */
const REPORTING_TABLES = [
  'admissions',
  'triage_records',
  'consultations',
  'consultation_diagnoses',
  'exam_orders',
] as const;
/** The days over which the reporting bench spreads its visits (two years before today). */
const REPORTING_DAYS = 730;
/** From this many visits added at once, the load drops the tables' secondary indexes and builds them after. */
const REPORTING_BULK = 100_000;

/**
 * The reporting bench (issue 24, `npm run seed:scale -- --reporting N`): at least `visits` completed visits of the
 * first hospital spread over the 730 days before today and over its departments, each triaged, consulted by one
 * of its doctors and coded (one diagnosis, in rotation), a validated exam for one visit in four; patients drawn
 * from the hospital's records (run `--patients` first), written in time order. Set-based (`insert … select from generate_series`, a
 * batch of 50,000 visits a statement) with the triggers off (`session_replication_role`), the rows' ids
 * time-ordered (UUID version 7 layout) so that the primary keys grow at their right edge instead of at random
 * pages; a large load (≥ 100,000 visits) drops the tables' secondary indexes and builds them once at the end, in
 * the same transaction (a failed load leaves the database as it was). Then every day is marked and the summaries
 * are built by the app's own refresh (`refreshDirtyDays`, decision 0038), timed apart. Never on a real hospital.
 */
export async function seedScaleReporting(
  db: Db,
  visits: number,
  onProgress: (done: number) => void = () => {},
  batch = 50_000,
): Promise<{
  hospital: string;
  visits: number;
  loadS: number;
  indexesS: number;
  vacuumS: number;
  summariesS: number;
  days: number;
}> {
  const hospital = await firstHospital(db);
  const facts = await db.execute<{
    departments: string[];
    doctors: string[];
    exams: string[];
    records: number;
    have: number;
  }>(sql`select
      array(select id from departments where hospital_id = ${hospital.id} and is_active
        and kind in ('clinical', 'emergency', 'maternity') order by code) as departments,
      array(select distinct m.user_id from memberships m where m.hospital_id = ${hospital.id} and m.is_active
        and upper(m.role_code) in ('DOCTOR', 'HEAD_DOCTOR') order by m.user_id) as doctors,
      array(select id from exam_catalogue where kind = 'lab' and active order by code limit 12) as exams,
      (select value from hospital_sequences where hospital_id = ${hospital.id} and name = 'patient_record') as records,
      (select count(*)::int from admissions where hospital_id = ${hospital.id} and reason = ${REPORTING_REASON}) as have`);
  const f = facts.rows[0]!;
  const records = Number(f.records ?? 0);
  if (f.departments.length === 0 || f.doctors.length === 0 || f.exams.length === 0 || records < 100)
    throw new Error('No department, doctor, lab exam or patients: seed the demo and --patients first.');
  const uuids = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
  const codes = sql`${`{${REPORTING_CODES.join(',')}}`}::text[]`;
  const levels = sql`${`{${REPORTING_LEVELS.map(([l]) => `"${l}"`).join(',')}}`}::text[]`;
  const ranks = sql`${`{${REPORTING_LEVELS.map(([, r]) => r).join(',')}}`}::int[]`;
  const targets = sql`${`{${REPORTING_LEVELS.map(([, , t]) => t).join(',')}}`}::int[]`;
  const nd = f.departments.length;
  const nl = REPORTING_LEVELS.length;
  const nDoctors = f.doctors.length;
  const doctor = (k: SQL) => sql`(${uuids(f.doctors)})[1 + ${k} % ${nDoctors}]`;
  // Row k's id: 48 bits of "time" (this load's start in ms + k), version 7, a tag per table, variant, k.
  const base = Date.now();
  const id = (tag: string, k: SQL) =>
    sql`(lpad(to_hex(${base}::bigint + ${k}), 12, '0') || ${`7${tag}8`} || lpad(to_hex(${k}), 15, '0'))::uuid`;
  const started = Date.now();
  const before = Number(f.have);
  let done = before;
  let indexesS = 0;
  if (done < visits)
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`set local synchronous_commit = off`);
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      // The secondary indexes (not those of a constraint: the primary keys stay), rebuilt after a large load.
      const indexes =
        visits - done >= REPORTING_BULK
          ? (
              await tx.execute<{ name: string; definition: string }>(sql`
                select i.indexname as name, i.indexdef as definition from pg_indexes i
                where i.schemaname = current_schema() and i.tablename in (${sql.join(
                  REPORTING_TABLES.map((t) => sql`${t}`),
                  sql`, `,
                )})
                  and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
                order by i.tablename, i.indexname`)
            ).rows
          : [];
      for (const index of indexes) await tx.execute(sql`drop index ${sql.identifier(index.name)}`);
      while (done < visits) {
        const from = done + 1;
        const to = Math.min(done + batch, visits);
        // Visit k: in time order (as a hospital writes them, so that a period's rows sit together on disk), from
        // 730 days before today to yesterday, between 07:00 and 17:00 UTC; a patient of the records in rotation.
        await tx.execute(sql`with k as (
            select k::bigint as k,
              (${REPORTING_DAYS} - floor((k - ${before + 1}) * ${REPORTING_DAYS}::numeric / ${visits - before}))::int as back,
              (420 + (k * 104729) % 600)::int as minute,
              1 + (k * 48271) % ${records} as record, (1 + k % ${nd})::int as dept, (1 + (k * 31) % ${nl})::int as lvl
            from generate_series(${from}::bigint, ${to}::bigint) k),
          v as (
            insert into admissions (id, hospital_id, patient_id, department_id, admission_type, reason, status,
              queue_date, queue_number, admitted_at, closed_at, triage_level, triage_rank, triage_target_minutes,
              created_by)
            select ${id('a01', sql`k.k`)}, ${hospital.id}, p.id, (${uuids(f.departments)})[k.dept],
              (array['outpatient', 'emergency', 'maternity', 'outpatient']::admission_type[])[1 + k.k % 4],
              ${REPORTING_REASON}, 'completed', (current_date - k.back),
              3000000 + k.k, (current_date - k.back)::timestamp at time zone 'UTC' + k.minute * interval '1 minute',
              (current_date - k.back)::timestamp at time zone 'UTC' + (k.minute + 150) * interval '1 minute',
              (${levels})[k.lvl], (${ranks})[k.lvl], (${targets})[k.lvl], (${uuids(f.doctors)})[1]
            from k join patients p on p.hospital_id = ${hospital.id}
              and p.record_number = ${hospital.code} || '-' || lpad(k.record::text, greatest(6, length(k.record::text)), '0')
            returning id, patient_id, department_id, admitted_at, triage_level, triage_rank,
              (queue_number - 3000000)::bigint as k),
          t as (
            insert into triage_records (id, hospital_id, admission_id, patient_id, scale, level, level_rank,
              suggested_level, chief_complaint, recorded_by, recorded_at)
            select ${id('a02', sql`v.k`)}, ${hospital.id}, v.id, v.patient_id, 'FRENCH', v.triage_level, v.triage_rank,
              v.triage_level, 'Fièvre', (${uuids(f.doctors)})[1], v.admitted_at + (2 + v.k % 25) * interval '1 minute'
            from v returning 1),
          c as (
            insert into consultations (id, hospital_id, admission_id, patient_id, department_id, doctor_id, status,
              reason, outcome, started_at, completed_at, completed_by, created_by)
            select ${id('a03', sql`v.k`)}, ${hospital.id}, v.id, v.patient_id, v.department_id, ${doctor(sql`v.k`)},
              'completed', 'Fièvre', 'discharge',
              v.admitted_at + (5 + (v.k * 37) % 110) * interval '1 minute',
              v.admitted_at + (20 + (v.k * 37) % 110 + v.k % 40) * interval '1 minute',
              ${doctor(sql`v.k`)}, ${doctor(sql`v.k`)}
            from v returning 1),
          d as (
            insert into consultation_diagnoses (id, hospital_id, consultation_id, patient_id, icd_code, label, coded,
              rank, certainty, created_by, created_at)
            select ${id('a04', sql`v.k`)}, ${hospital.id}, ${id('a03', sql`v.k`)}, v.patient_id,
              (${codes})[1 + (v.k * 13) % ${REPORTING_CODES.length}],
              (${codes})[1 + (v.k * 13) % ${REPORTING_CODES.length}], true, 'primary',
              (case when v.k % 3 = 0 then 'suspected' else 'confirmed' end)::diagnosis_certainty, ${doctor(sql`v.k`)},
              v.admitted_at + (15 + (v.k * 37) % 110) * interval '1 minute'
            from v returning 1)
          insert into exam_orders (id, hospital_id, order_number, patient_id, consultation_id, admission_id, exam_id,
            department_id, status, abnormal, requested_by, requested_at, resulted_by, resulted_at, validated_by,
            validated_at)
          select ${id('a05', sql`v.k`)}, ${hospital.id}, ${hospital.code} || '-EXR-' || v.k, v.patient_id,
            ${id('a03', sql`v.k`)}, v.id, (${uuids(f.exams)})[1 + (v.k / 4) % ${f.exams.length}], v.department_id,
            'validated', v.k % 3 = 0, ${doctor(sql`v.k`)}, v.admitted_at + (10 + (v.k * 37) % 110) * interval '1 minute',
            ${doctor(sql`v.k`)}, v.admitted_at + (45 + (v.k * 37) % 110 + v.k % 90) * interval '1 minute',
            ${doctor(sql`v.k`)}, v.admitted_at + (65 + (v.k * 37) % 110 + v.k % 120) * interval '1 minute'
          from v where v.k % 4 = 0`);
        done = to;
        onProgress(done);
      }
      const t0 = Date.now();
      for (const index of indexes) await tx.execute(sql.raw(index.definition));
      indexesS = Math.round((Date.now() - t0) / 100) / 10;
    });
  // One visit in a hundred ended in a stay (the inpatient section reads the stays and their beds raw): admitted
  // half an hour after the consultation, 1 to 7 days (never past now), one death in fifty, in the hospital's
  // beds in rotation.
  const wanted = Math.floor(visits / 100);
  const stays = await db.execute<{ n: number; beds: string[] }>(sql`select
      (select count(*)::int from hospitalizations where hospital_id = ${hospital.id} and reason = ${REPORTING_STAY}) as n,
      array(select id from beds where hospital_id = ${hospital.id} and is_active order by id) as beds`);
  const beds = stays.rows[0]!.beds;
  const addStays = Number(stays.rows[0]!.n) < wanted && beds.length > 0;
  if (addStays)
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`with s as (
          select (a.queue_number - 3000000)::bigint as k, a.id as admission, a.patient_id, a.department_id,
            c.id as consultation, c.doctor_id, c.completed_at
          from admissions a join consultations c on c.admission_id = a.id
          where a.hospital_id = ${hospital.id} and a.reason = ${REPORTING_REASON} and a.queue_number % 100 = 0
            and not exists (select 1 from hospitalizations x where x.admission_id = a.id)),
        h as (
          insert into hospitalizations (id, hospital_id, patient_id, admission_id, consultation_id, department_id,
            doctor_id, status, reason, requested_at, admitted_at, ended_at, discharge_mode, death_at, discharged_by,
            created_by)
          select ${id('a06', sql`s.k`)}, ${hospital.id}, s.patient_id, s.admission, s.consultation, s.department_id,
            s.doctor_id, 'discharged', ${REPORTING_STAY}, s.completed_at, s.completed_at + interval '30 minutes',
            least(now(), s.completed_at + interval '30 minutes' + (1 + s.k % 7) * interval '1 day' + (s.k % 600) * interval '1 minute'),
            (case when s.k % 5000 = 0 then 'deceased' else 'home' end)::discharge_mode,
            case when s.k % 5000 = 0 then least(now(), s.completed_at + interval '30 minutes' + (1 + s.k % 7) * interval '1 day') end,
            s.doctor_id, s.doctor_id
          from s returning id, admission_id, admitted_at, ended_at)
        insert into bed_assignments (id, hospital_id, hospitalization_id, bed_id, started_at, ended_at, assigned_by)
        select ${id('a07', sql`s.k`)}, ${hospital.id}, h.id, (${uuids(beds)})[1 + (s.k / 100) % ${beds.length}],
          h.admitted_at, h.ended_at, s.doctor_id
        from h join s on s.admission = h.admission_id`);
    });
  // As after any bulk load: the visibility map and the statistics (autovacuum would come to it later).
  const vacuumAt = Date.now();
  if (done > before || addStays)
    for (const table of [...REPORTING_TABLES, 'hospitalizations', 'bed_assignments'])
      await db.execute(sql.raw(`vacuum (analyze) ${table}`));
  const loaded = Date.now();
  // The load bypassed the triggers: mark every day and build the summaries through the app's refresh (nothing
  // to do on a later run that added nothing, unless an earlier run was stopped during its refresh).
  if (done > before) await markAllDays(db, hospital.id);
  const days = (await hasDirtyDays(db, [hospital.id])) ? await refreshDirtyDays(db, [hospital.id]) : 0;
  const total = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from admissions where hospital_id = ${hospital.id} and reason = ${REPORTING_REASON}`,
  );
  return {
    hospital: hospital.code,
    visits: Number(total.rows[0]?.n ?? 0),
    loadS: Math.round((vacuumAt - started) / 100) / 10,
    indexesS,
    vacuumS: Math.round((loaded - vacuumAt) / 100) / 10,
    summariesS: Math.round((Date.now() - loaded) / 100) / 10,
    days,
  };
}
