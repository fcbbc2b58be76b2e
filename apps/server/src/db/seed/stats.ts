/**
 * Past visits for the reporting (issue 24, decision 0035): the journey seeds today's visits only, so that the
 * indicators of this month and of last month show figures, HGG gets two completed visits a day over the last 45
 * days (never today: days are counted back from yesterday in the hospital's time zone, so the seed does not
 * depend on the hour) for its journey patients, triaged, consulted by the demo doctors and coded — malaria
 * confirmed and suspected among them, so that the IDSR table and its drill-down have something to show.
 */
import { randomUUID } from 'node:crypto';
import { DHIS2_ACTIVITY_INDICATORS } from '@greensen/shared/contracts/dhis2';
import { IDSR_AGE_GROUPS, IDSR_KEYS } from '@greensen/shared/contracts/stats';
import {
  levelRank,
  TARGET_MINUTES,
  TRIAGE_LEVELS,
  type TriageLevel,
  type TriageScale,
} from '@greensen/shared/domain/triage';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../client.js';
import {
  admissions,
  consultationDiagnoses,
  consultations,
  departments,
  dhis2Mappings,
  dhis2Settings,
  hospitals,
  patients,
  triageRecords,
  users,
} from '../schema/index.js';

export const HISTORY_DAYS = 45;

/**
 * Codes of the demo catalogue (consultations.ts), with their certainty and label, in rotation. Not I10: the demo
 * shows Rémy Ilunga Banza as the hospital's one hypertension (seed/consultations.checks.ts).
 */
const CODES = [
  { code: 'B50.9', certainty: 'confirmed', label: 'Paludisme à Plasmodium falciparum, sans précision' },
  { code: 'J18.9', certainty: 'confirmed', label: 'Pneumopathie, sans précision' },
  { code: 'B54', certainty: 'suspected', label: 'Paludisme, sans précision' },
  { code: 'B50.9', certainty: 'confirmed', label: 'Paludisme à Plasmodium falciparum, sans précision' },
  { code: 'A09.0', certainty: 'confirmed', label: 'Gastro-entérite d’origine infectieuse' },
  { code: 'E11.9', certainty: 'confirmed', label: 'Diabète de type 2, sans complication' },
] as const;

/**
 * Which patient (an index in record-number order) each past visit is for, oldest visit first: a third of the
 * visits are a patient's first one, spread evenly over the period, the others go back to patients already seen —
 * so that every month of the history has new patients and returning ones, as a hospital's has.
 */
export function historyPatients(people: number, visits: number): number[] {
  const newcomers = Math.min(people, Math.ceil(visits / 3));
  const out: number[] = [];
  let seen = 0;
  for (let m = 0; m < visits; m += 1) {
    const due = Math.floor(((m + 1) * newcomers) / visits);
    // A newcomer when the even spread is due one, else one of those already seen (a fixed multiplicative hash:
    // the same demo every time, without always the same few patients).
    if (seen < due || seen === 0) out.push(seen++);
    else out.push((Math.imul(m + 1, 2654435761) >>> 0) % seen);
  }
  return out;
}

export async function seedStatsHistory(tx: Queryable): Promise<number> {
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  if (!h) return 0;
  const deps = await tx
    .select()
    .from(departments)
    .where(and(eq(departments.hospitalId, h.id), inArray(departments.code, ['URG', 'MED'])));
  const doctors = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(users.email, ['medecin@greensen.test', 'medecin2@greensen.test', 'infirmier@greensen.test']),
    );
  const doctor = (email: string) => doctors.find((u) => u.email === email)?.id;
  const nurse = doctor('infirmier@greensen.test');
  const people = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.hospitalId, h.id))
    .orderBy(patients.recordNumber);
  const urg = deps.find((d) => d.code === 'URG');
  const med = deps.find((d) => d.code === 'MED');
  const doc1 = doctor('medecin@greensen.test');
  const doc2 = doctor('medecin2@greensen.test');
  if (!urg || !med || !doc1 || !doc2 || !nurse || people.length === 0) return 0;
  const scale: TriageScale = h.triageScale;
  const levels = TRIAGE_LEVELS[scale].slice(1, 4) as TriageLevel[];
  // Yesterday in the hospital's zone (its date and its midnight): the visits' days count back from it. A day is
  // taken as 24 h back; in a zone with daylight saving the visits' hour moves by one, still within their day.
  const today = await tx.execute<{ d: string; midnight: Date | string }>(
    sql`select ((now() at time zone ${h.timeZone})::date - 1)::text as d,
      (((now() at time zone ${h.timeZone})::date - 1)::timestamp at time zone ${h.timeZone}) as midnight`,
  );
  const yesterday = new Date(`${today.rows[0]!.d}T00:00:00Z`).getTime();
  const midnight = new Date(today.rows[0]!.midnight).getTime();
  // Ids made here so that each table takes one insert of all its rows (a few statements, not hundreds).
  const visits: (typeof admissions.$inferInsert)[] = [];
  const triages: (typeof triageRecords.$inferInsert)[] = [];
  const records: (typeof consultations.$inferInsert)[] = [];
  const coded: (typeof consultationDiagnoses.$inferInsert)[] = [];
  const patientOf = historyPatients(people.length, HISTORY_DAYS * 2);
  for (let back = 0; back < HISTORY_DAYS; back += 1) {
    const day = new Date(yesterday - back * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < 2; k += 1) {
      const n = back * 2 + k;
      const patient = people[patientOf[HISTORY_DAYS * 2 - 1 - n]!]!.id;
      const emergency = k === 0;
      const dep = emergency ? urg : med;
      const doctorId = emergency ? doc1 : doc2;
      const code = CODES[n % CODES.length]!;
      const level = levels[n % levels.length]!;
      const rank = levelRank(scale, level);
      // 09:00 + k × 3 h in the hospital's zone: a time of that past day.
      const at = (minutes: number) =>
        new Date(midnight - back * 86_400_000 + (9 * 60 + k * 180 + minutes) * 60_000);
      const admissionId = randomUUID();
      const triageId = randomUUID();
      const consultationId = randomUUID();
      visits.push({
        id: admissionId,
        hospitalId: h.id,
        patientId: patient,
        departmentId: dep.id,
        admissionType: emergency ? 'emergency' : 'outpatient',
        reason: code.label,
        status: 'completed',
        queueDate: day,
        // Past days have no other visit of the journey; numbers above its range all the same.
        queueNumber: 900 + k,
        admittedAt: at(0),
        triageId,
        triageLevel: level,
        triageRank: rank,
        triageTargetMinutes: TARGET_MINUTES[level],
        closedAt: at(75 + (n % 4) * 10),
        createdAt: at(0),
      });
      triages.push({
        id: triageId,
        hospitalId: h.id,
        admissionId,
        patientId: patient,
        scale,
        chiefComplaint: code.label,
        suggestedLevel: level,
        level,
        levelRank: rank,
        targetMinutes: TARGET_MINUTES[level],
        recordedBy: nurse,
        recordedAt: at(8 + (n % 3) * 4),
      });
      records.push({
        id: consultationId,
        hospitalId: h.id,
        admissionId,
        patientId: patient,
        departmentId: dep.id,
        doctorId,
        status: 'completed',
        reason: code.label,
        conclusion: code.label,
        outcome: 'discharge',
        startedAt: at(20 + (n % 5) * 8),
        completedAt: at(75 + (n % 4) * 10),
        completedBy: doctorId,
        createdBy: doctorId,
        createdAt: at(20),
      });
      coded.push({
        hospitalId: h.id,
        consultationId,
        patientId: patient,
        icdCode: code.code,
        label: code.label,
        coded: true,
        rank: 'primary',
        certainty: code.certainty,
        createdBy: doctorId,
        createdAt: at(70),
      });
    }
  }
  await tx.insert(admissions).values(visits);
  await tx.insert(triageRecords).values(triages);
  await tx.insert(consultations).values(records);
  await tx.insert(consultationDiagnoses).values(coded);
  const made = visits.length;
  return made;
}

/**
 * The demo's DHIS2 mapping of HGG (issue 24, decision 0039), in the `CODE` identifier scheme with codes made up
 * for the demo (a hospital sets its own instance's): every activity indicator, and the IDSR diseases by age group
 * with one category option combo per group, so that the monthly report and the weekly IDSR file can be exported
 * from the demo at once.
 */
export async function seedDhis2Mapping(tx: Queryable): Promise<number> {
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'admin@greensen.test'));
  if (!h || !admin) return 0;
  const code = (text: string) => `GS_${text.replace(/[^a-zA-Z0-9]+/g, '_').toUpperCase()}`;
  await tx.insert(dhis2Settings).values({
    hospitalId: h.id,
    idScheme: 'CODE',
    orgUnit: `GS_${h.code}`,
    monthlyDataSet: 'GS_MONTHLY_ACTIVITY',
    weeklyDataSet: 'GS_IDSR_WEEKLY',
    updatedBy: admin.id,
  });
  const rows = [
    ...DHIS2_ACTIVITY_INDICATORS.map((indicator) => ({
      indicator,
      dataElement: code(indicator),
      categoryOptionCombo: 'default',
    })),
    ...IDSR_KEYS.flatMap((disease) =>
      [...IDSR_AGE_GROUPS, 'total'].map((group) => ({
        indicator: `idsr.${disease}.${group}`,
        // The total is its own data element: the age groups' cells already add up in DHIS2.
        dataElement: code(group === 'total' ? `idsr ${disease} total` : `idsr ${disease}`),
        categoryOptionCombo: group === 'total' ? 'default' : code(`age ${group}`),
      })),
    ),
  ];
  await tx.insert(dhis2Mappings).values(rows.map((r) => ({ hospitalId: h.id, ...r })));
  return rows.length;
}
