import type {
  AppointmentStatus,
  AppointmentType,
  ScheduleSession,
  WeekdayCode,
} from '@greensen/shared/domain/appointments';
import { expandSlots, WEEKDAY_CODES } from '@greensen/shared/domain/appointments';
import { addDays, zonedDate } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../client.js';
import { uuidv7 } from '../schema/common.js';

const MINUTE = 60_000;
const SLOT = 20 * MINUTE;

interface DemoSchedule {
  email: string;
  hospital: 'HGG' | 'CDF';
  department: string;
  days: readonly WeekdayCode[];
  hours: readonly [string, string][];
  slot: number;
  capacity: number;
  types: readonly AppointmentType[];
}

/** The demo's clinics (issue 22). medecin@ sees patients every day at HGG so that her schedule tab is never empty. */
const SCHEDULES: readonly DemoSchedule[] = [
  {
    email: 'medecin@greensen.test',
    hospital: 'HGG',
    department: 'URG',
    days: WEEKDAY_CODES,
    hours: [['07:00', '19:00']],
    slot: 20,
    capacity: 1,
    types: ['new', 'follow_up', 'procedure'],
  },
  {
    email: 'medecin@greensen.test',
    hospital: 'CDF',
    department: 'MED',
    days: ['mon', 'wed', 'fri'],
    hours: [['08:00', '12:00']],
    slot: 20,
    capacity: 1,
    types: ['new', 'follow_up'],
  },
  {
    email: 'medecin2@greensen.test',
    hospital: 'HGG',
    department: 'MED',
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    hours: [
      ['08:00', '12:00'],
      ['14:00', '16:00'],
    ],
    slot: 20,
    capacity: 1,
    types: ['new', 'follow_up', 'procedure'],
  },
  {
    email: 'sagefemme@greensen.test',
    hospital: 'HGG',
    department: 'MAT',
    days: ['tue', 'thu'],
    hours: [['08:00', '12:00']],
    slot: 30,
    capacity: 2,
    types: ['antenatal', 'vaccination'],
  },
];

const REASONS: Record<AppointmentType, string> = {
  new: 'Première consultation',
  follow_up: 'Contrôle après traitement',
  antenatal: 'Consultation prénatale',
  vaccination: 'Vaccination de l’enfant',
  procedure: 'Pansement et ablation des fils',
  other: 'Rendez-vous',
};

/**
 * The appointments demo (issue 22): weekly schedules of medecin@ (HGG emergencies, CDF medicine), medecin2@ (HGG
 * medicine) and sagefemme@ (HGG antenatal clinic); past appointments (completed, no-show), coming ones (booked,
 * confirmed), a few today for medecin@ around the time the demo is made (times relative to now, in the hospital's
 * time zone, so that the schedule tab and the calendar show something whatever the hour), and one public holiday.
 * The slot counters match the bookings.
 */
export async function seedAppointments(tx: Queryable): Promise<number> {
  const hospitals = await tx.execute<{ id: string; code: string; time_zone: string }>(
    sql`select id, code, time_zone from hospitals where code in ('HGG', 'CDF')`,
  );
  const hospitalOf = new Map(hospitals.rows.map((h) => [h.code, h]));
  const hgg = hospitalOf.get('HGG');
  if (!hgg) return 0;
  const now = Date.now();
  let count = 0;

  const patientsOf = async (hospitalId: string) =>
    (
      await tx.execute<{ id: string }>(sql`select id from patients where hospital_id = ${hospitalId}
        and archived_at is null and deceased_at is null order by record_number limit 40`)
    ).rows.map((r) => r.id);
  // Patients free to be checked in today: no visit open (the desk's check-in opens one; a second is refused) and
  // no stay under way.
  const freeToday = (
    await tx.execute<{ id: string }>(sql`select p.id from patients p where p.hospital_id = ${hgg.id}
      and p.archived_at is null and p.deceased_at is null
      and not exists (select 1 from admissions a where a.patient_id = p.id
        and a.status in ('waiting', 'assigned', 'in_consultation'))
      and not exists (select 1 from hospitalizations s where s.patient_id = p.id
        and s.status in ('pending_bed', 'admitted'))
      order by p.record_number limit 6`)
  ).rows.map((r) => r.id);
  const pools = new Map<string, string[]>();
  const nextPatient = async (hospitalId: string) => {
    let pool = pools.get(hospitalId);
    if (!pool) {
      pool = await patientsOf(hospitalId);
      pools.set(hospitalId, pool);
    }
    const id = pool.shift();
    if (id) pool.push(id);
    return id;
  };
  const secretary = (
    await tx.execute<{ id: string }>(sql`select id from users where email = 'secretaire@greensen.test'`)
  ).rows[0]?.id;

  const book = async (b: {
    hospitalId: string;
    provider: string;
    department: string;
    schedule: string;
    capacity: number;
    start: Date;
    minutes: number;
    type: AppointmentType;
    status: AppointmentStatus;
    /** The patient, else the next of the hospital's pool. */
    patient?: string;
  }) => {
    const patient = b.patient ?? (await nextPatient(b.hospitalId));
    if (!patient) return;
    const start = b.start.toISOString();
    const end = new Date(b.start.getTime() + b.minutes * MINUTE).toISOString();
    const past = b.start.getTime() < now;
    const at = (offsetMin: number) => new Date(b.start.getTime() + offsetMin * MINUTE).toISOString();
    await tx.execute(sql`insert into appointments (id, hospital_id, patient_id, provider_id, department_id,
        schedule_id, start_at, end_at, appointment_type, reason, status, booked_by, created_at, confirmed_at,
        checked_in_at, completed_at, no_show_at)
      values (${uuidv7()}, ${b.hospitalId}, ${patient}, ${b.provider}, ${b.department}, ${b.schedule},
        ${start}::timestamptz, ${end}::timestamptz, ${b.type}, ${REASONS[b.type]}, ${b.status}, ${secretary ?? null},
        ${new Date(Math.min(now, b.start.getTime()) - 3 * 86_400_000).toISOString()}::timestamptz,
        ${b.status === 'confirmed' || (past && b.status !== 'no_show') ? at(-24 * 60) : null}::timestamptz,
        ${b.status === 'completed' ? at(-10) : null}::timestamptz,
        ${b.status === 'completed' ? at(b.minutes) : null}::timestamptz,
        ${b.status === 'no_show' ? at(30) : null}::timestamptz)
      on conflict do nothing`);
    await tx.execute(sql`insert into appointment_slots (hospital_id, provider_id, start_at, capacity, booked)
      values (${b.hospitalId}, ${b.provider}, ${start}::timestamptz, ${b.capacity}, 1)
      on conflict on constraint appointment_slots_pk do update
        set booked = least(appointment_slots.booked + 1, appointment_slots.capacity)`);
    count += 1;
  };

  for (const s of SCHEDULES) {
    const h = hospitalOf.get(s.hospital);
    if (!h) continue;
    const ids = await tx.execute<{ user_id: string; department_id: string }>(sql`select u.id as user_id,
        d.id as department_id from users u, departments d
      where u.email = ${s.email} and d.hospital_id = ${h.id} and d.code = ${s.department}`);
    const row = ids.rows[0];
    if (!row) continue;
    const today = zonedDate(new Date(now), h.time_zone);
    const sessions: ScheduleSession[] = s.days.flatMap((weekday) =>
      s.hours.map(([start, end]) => ({ weekday, start, end })),
    );
    const schedule = uuidv7();
    await tx.execute(sql`insert into provider_schedules (id, hospital_id, provider_id, department_id, sessions,
        slot_minutes, capacity, types, valid_from)
      values (${schedule}, ${h.id}, ${row.user_id}, ${row.department_id}, ${JSON.stringify(sessions)}::jsonb,
        ${s.slot}, ${s.capacity}, ${`{${s.types.join(',')}}`}::appointment_type[], ${addDays(today, -60)}::date)`);
    const slots = expandSlots({
      schedules: [
        {
          id: schedule,
          provider: row.user_id,
          department: row.department_id,
          sessions,
          slot_minutes: s.slot,
          capacity: s.capacity,
          types: s.types,
          valid_from: addDays(today, -60),
          valid_until: null,
        },
      ],
      exceptions: [],
      holidays: [],
      from: addDays(today, -14),
      to: addDays(today, 14),
      timeZone: h.time_zone,
    });
    const base = {
      hospitalId: h.id,
      provider: row.user_id,
      department: row.department_id,
      schedule,
      capacity: s.capacity,
      minutes: s.slot,
    };
    const type = (i: number) => s.types[i % s.types.length] as AppointmentType;
    // Past days: every third slot, completed, one in four a no-show; coming days: every third, booked or confirmed.
    const pastDays = slots.filter((x) => zonedDate(x.start, h.time_zone) < today);
    const comingDays = slots.filter((x) => zonedDate(x.start, h.time_zone) > today);
    for (const [i, x] of pastDays
      .filter((_, i) => i % 3 === 0)
      .slice(-10)
      .entries())
      await book({ ...base, start: x.start, type: type(i), status: i % 4 === 3 ? 'no_show' : 'completed' });
    for (const [i, x] of comingDays
      .filter((_, i) => i % 3 === 1)
      .slice(0, 12)
      .entries())
      await book({ ...base, start: x.start, type: type(i), status: i % 2 === 0 ? 'confirmed' : 'booked' });
    if (s.email === 'medecin@greensen.test' && s.hospital === 'HGG') {
      // Today, around now (on 20-minute boundaries): two seen, one who did not come, three to come — for patients
      // without an open visit, so that the desk can check them in. Late in the evening they move earlier so that the
      // three to come stay on today's date (a check-in is for the appointment's day).
      let here = Math.floor(now / SLOT) * SLOT;
      while (zonedDate(new Date(here + 5 * SLOT), h.time_zone) !== today) here -= SLOT;
      const today_: [number, AppointmentStatus][] = [
        [-6, 'completed'],
        [-4, 'completed'],
        [-2, 'no_show'],
        [2, 'confirmed'],
        [3, 'booked'],
        [5, 'booked'],
      ];
      for (const [i, [k, status]] of today_.entries())
        await book({
          ...base,
          start: new Date(here + k * SLOT),
          type: type(i),
          status,
          patient: status === 'confirmed' || status === 'booked' ? freeToday[i] : undefined,
        });
    }
  }

  // One public holiday of HGG: Independence Day (30 June), the next one.
  const today = zonedDate(new Date(now), hgg.time_zone);
  const year = Number(today.slice(0, 4));
  const holiday = `${today.slice(5) > '06-30' ? year + 1 : year}-06-30`;
  await tx.execute(sql`insert into hospital_holidays (id, hospital_id, date, name)
    values (${uuidv7()}, ${hgg.id}, ${holiday}::date, 'Fête de l’indépendance') on conflict do nothing`);

  // One absence on the schedules tab: medecin2@ in training three weeks from now (after the last demo booking, 14
  // days ahead), so that the slot search skips those days.
  await tx.execute(sql`insert into schedule_exceptions (id, hospital_id, provider_id, start_date, end_date, kind,
      reason)
    select ${uuidv7()}, ${hgg.id}, u.id, ${addDays(today, 21)}::date, ${addDays(today, 23)}::date, 'training',
      'Formation échographie'
    from users u where u.email = 'medecin2@greensen.test'`);

  // Reminders reach one demo patient by email in English, the others by SMS in French.
  await tx.execute(sql`update patients set email = 'patient.demo@greensen.test', preferred_language = 'en'
    where id = (select patient_id from appointments where hospital_id = ${hgg.id} and status in ('booked', 'confirmed')
      order by start_at limit 1)`);
  return count;
}
