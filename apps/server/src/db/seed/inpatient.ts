import { eq, inArray, sql } from 'drizzle-orm';
import { nextSequenceValue } from '../../lib/sequences.js';
import { news2Of } from '../../modules/care/vital-signs.repository.js';
import type { Queryable } from '../client.js';
import {
  admissions,
  bedAssignments,
  beds,
  departments,
  hospitalizations,
  hospitals,
  patients,
  progressNotes,
  rooms,
  transfers,
  triageRecords,
  users,
  wards,
} from '../schema/index.js';

interface DemoStay {
  first: string;
  last: string;
  sex: 'F' | 'M';
  birth: string;
  allergies?: string[];
  department: string;
  /** The ward code and the bed's position in it (1–6), or null while waiting for a bed. */
  bed: { ward: string; index: number } | null;
  reason: string;
  icd: string | null;
  /** Days since the admission (0: today). */
  days: number;
  expected?: number;
  doctor: string;
  notes?: string[];
  /** An internal transfer requested to this department. */
  transferTo?: string;
  /** Discharged home that many days ago. */
  dischargedDaysAgo?: number;
  vitals?: {
    temperature?: number;
    heartRate?: number;
    respiratoryRate?: number;
    systolicBp?: number;
    diastolicBp?: number;
    spo2?: number;
  };
}

const URG_DOC = 'medecin@greensen.test';
const MED_DOC = 'medecin2@greensen.test';
const HEAD = 'chef@greensen.test';

/**
 * A realistic floor at HGG: patients in beds of the emergency, medicine and paediatric wards (the emergency
 * nurse infirmier@ sees hers on her dashboard), two waiting for a bed, an internal transfer waiting for an
 * answer, and a stay discharged last week. Bed positions avoid each ward's bed 4 (cleaning) and 6 (out of
 * service) of the structure seed.
 */
const STAYS: DemoStay[] = [
  {
    first: 'Bernadette',
    last: 'Ilunga',
    sex: 'F',
    birth: '1958-03-14',
    allergies: ['Pénicilline'],
    department: 'URG',
    bed: { ward: 'URG-1', index: 1 },
    reason: 'Pneumopathie hypoxémiante',
    icd: 'J18.9',
    days: 1,
    expected: 5,
    doctor: URG_DOC,
    notes: ['J1 : SpO2 91 % sous 2 L/min, ceftriaxone IV débutée (allergie pénicilline notée).'],
    vitals: {
      temperature: 38.6,
      heartRate: 104,
      respiratoryRate: 26,
      systolicBp: 128,
      diastolicBp: 76,
      spo2: 91,
    },
  },
  {
    first: 'Didier',
    last: 'Mwamba',
    sex: 'M',
    birth: '1984-11-02',
    department: 'URG',
    // Not beside Bernadette: a room holds patients of one sex (issue 37).
    bed: { ward: 'URG-1', index: 3 },
    reason: 'Paludisme grave, vomissements',
    icd: 'B50.9',
    days: 0,
    expected: 3,
    doctor: URG_DOC,
    vitals: {
      temperature: 39.4,
      heartRate: 118,
      respiratoryRate: 22,
      systolicBp: 102,
      diastolicBp: 64,
      spo2: 96,
    },
  },
  {
    first: 'Rose',
    last: 'Kasongo',
    sex: 'F',
    birth: '1947-06-21',
    department: 'MED',
    bed: { ward: 'MED-1', index: 1 },
    reason: 'Décompensation cardiaque',
    vitals: {
      temperature: 36.8,
      heartRate: 96,
      respiratoryRate: 24,
      systolicBp: 152,
      diastolicBp: 94,
      spo2: 93,
    },
    icd: 'I50.0',
    days: 6,
    expected: 5,
    doctor: MED_DOC,
    notes: [
      'J1 : œdèmes des membres inférieurs, furosémide IV.',
      'J4 : diurèse satisfaisante, poids −3 kg.',
      'J6 : dyspnée d’effort persistante, avis cardiologique demandé.',
    ],
  },
  {
    first: 'Patrick',
    last: 'Tshibangu',
    sex: 'M',
    birth: '1976-01-30',
    department: 'MED',
    bed: { ward: 'MED-1', index: 5 },
    reason: 'Diabète déséquilibré, plaie du pied',
    icd: 'E11.9',
    days: 3,
    expected: 7,
    doctor: MED_DOC,
    transferTo: 'CHI',
    notes: ['J3 : plaie plantaire infectée, avis chirurgical pour parage.'],
  },
  {
    first: 'Esther',
    last: 'Ngalula',
    sex: 'F',
    birth: '1991-09-09',
    department: 'MED',
    bed: { ward: 'MED-2', index: 3 },
    reason: 'Fièvre typhoïde',
    icd: 'A01.0',
    days: 2,
    expected: 5,
    doctor: MED_DOC,
  },
  {
    first: 'Junior',
    last: 'Kabongo',
    sex: 'M',
    birth: `${new Date().getUTCFullYear() - 4}-05-12`,
    department: 'PED',
    bed: { ward: 'PED-1', index: 1 },
    reason: 'Paludisme grave de l’enfant, anémie',
    icd: 'B50.9',
    days: 2,
    expected: 4,
    doctor: URG_DOC,
  },
  {
    first: 'Samuel',
    last: 'Mbuyi',
    sex: 'M',
    birth: '1969-12-01',
    department: 'URG',
    bed: null,
    reason: 'Hémorragie digestive haute, surveillance',
    icd: null,
    days: 0,
    doctor: URG_DOC,
  },
  {
    first: 'Odette',
    last: 'Kalonji',
    sex: 'F',
    birth: '1955-02-17',
    department: 'MED',
    bed: null,
    reason: 'Hypertension sévère',
    icd: 'I10',
    days: 0,
    doctor: MED_DOC,
  },
  {
    first: 'Thérèse',
    last: 'Mutombo',
    sex: 'F',
    birth: '1988-04-04',
    department: 'MED',
    bed: { ward: 'MED-2', index: 1 },
    reason: 'Pneumopathie',
    icd: 'J18.9',
    days: 9,
    doctor: MED_DOC,
    dischargedDaysAgo: 4,
    notes: ['J5 : apyrétique, relais per os.'],
  },
];

const daysAgo = (days: number, hour = 9) => {
  const d = new Date(Date.now() - days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.getTime() > Date.now() ? new Date(Date.now() - 30 * 60_000) : d;
};

/** The demo's inpatient stays at HGG (issue 17). Runs in the demo seed's transaction, after the journey. */
export async function seedInpatient(tx: Queryable): Promise<number> {
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  if (!h) return 0;
  const deps = await tx.select().from(departments).where(eq(departments.hospitalId, h.id));
  const dep = (code: string) => deps.find((d) => d.code === code)!;
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [URG_DOC, MED_DOC, HEAD, 'infirmier@greensen.test']));
  const who = (email: string) => people.find((p) => p.email === email)!.id;
  const bedRows = await tx
    .select({ id: beds.id, ward: wards.code, order: beds.sortOrder })
    .from(beds)
    .innerJoin(rooms, eq(rooms.id, beds.roomId))
    .innerJoin(wards, eq(wards.id, rooms.wardId))
    .where(eq(beds.hospitalId, h.id));
  let count = 0;
  for (const s of STAYS) {
    const arrived = daysAgo(s.days);
    const record = await nextSequenceValue(tx, h.id, 'patient_record');
    const [p] = await tx
      .insert(patients)
      .values({
        hospitalId: h.id,
        recordNumber: `${h.code}-${String(record).padStart(6, '0')}`,
        firstName: s.first,
        lastName: s.last,
        sex: s.sex,
        birthDate: s.birth,
        allergies: s.allergies ?? [],
        allergiesRecorded: true,
        createdAt: arrived,
      })
      .returning({ id: patients.id });
    const day = arrived.toISOString().slice(0, 10);
    const [a] = await tx
      .insert(admissions)
      .values({
        hospitalId: h.id,
        patientId: p!.id,
        departmentId: dep(s.department).id,
        admissionType: s.department === 'URG' ? 'emergency' : 'inpatient',
        reason: s.reason,
        // A discharge closes the visit the stay came from (issue 37): the discharged stay's visit is completed.
        status: s.dischargedDaysAgo !== undefined ? 'completed' : 'hospitalized',
        queueDate: day,
        queueNumber: await nextSequenceValue(tx, h.id, `queue:${day}`),
        admittedAt: arrived,
        closedAt: arrived,
      })
      .returning({ id: admissions.id });
    const bed = s.bed ? bedRows.find((b) => b.ward === s.bed!.ward && b.order === s.bed!.index) : undefined;
    const discharged = s.dischargedDaysAgo !== undefined ? daysAgo(s.dischargedDaysAgo, 11) : null;
    const doctor = who(s.doctor);
    const [stay] = await tx
      .insert(hospitalizations)
      .values({
        hospitalId: h.id,
        patientId: p!.id,
        admissionId: a!.id,
        departmentId: dep(s.department).id,
        doctorId: doctor,
        status: discharged ? 'discharged' : bed ? 'admitted' : 'pending_bed',
        reason: s.reason,
        provisionalIcdCode: s.icd,
        expectedDays: s.expected ?? null,
        bedId: bed && !discharged ? bed.id : null,
        requestedAt: arrived,
        admittedAt: bed ? arrived : null,
        endedAt: discharged,
        dischargeMode: discharged ? 'home' : null,
        dischargeIcdCodes: discharged && s.icd ? [s.icd] : null,
        dischargeSummary: discharged ? 'Évolution favorable, apyrétique depuis 72 heures.' : null,
        dischargeTreatments: discharged ? 'Amoxicilline-acide clavulanique 5 jours' : null,
        dischargedBy: discharged ? doctor : null,
        createdBy: doctor,
      })
      .returning({ id: hospitalizations.id });
    if (bed) {
      await tx.insert(bedAssignments).values({
        hospitalId: h.id,
        hospitalizationId: stay!.id,
        bedId: bed.id,
        startedAt: arrived,
        endedAt: discharged,
        assignedBy: who('infirmier@greensen.test'),
      });
      if (!discharged) await tx.update(beds).set({ status: 'occupied' }).where(eq(beds.id, bed.id));
    }
    // A note "J4 : …" is signed on the fourth day of the stay, late in the morning round.
    for (const text of s.notes ?? []) {
      const day = Number(/^J(\d+)/.exec(text)?.[1] ?? 1);
      await tx.insert(progressNotes).values({
        hospitalId: h.id,
        hospitalizationId: stay!.id,
        authorId: doctor,
        text,
        signedAt: new Date(arrived.getTime() + (day - 1) * 86_400_000 + 2 * 3_600_000),
      });
    }
    // The vitals taken on arrival (the nurse's list shows the latest ones).
    if (s.vitals) {
      const nurse = who('infirmier@greensen.test');
      const v = s.vitals;
      const news2 = news2Of(
        {
          temperature: v.temperature ?? null,
          heart_rate: v.heartRate ?? null,
          respiratory_rate: v.respiratoryRate ?? null,
          systolic_bp: v.systolicBp ?? null,
          spo2: v.spo2 ?? null,
        },
        s.birth,
      );
      await tx.insert(triageRecords).values({
        hospitalId: h.id,
        admissionId: a!.id,
        patientId: p!.id,
        scale: h.triageScale,
        ...s.vitals,
        chiefComplaint: s.reason,
        suggestedLevel: '3',
        level: '3',
        levelRank: 3,
        targetMinutes: 60,
        news2Score: news2?.score ?? null,
        news2: news2 ? { ...news2 } : null,
        recordedBy: nurse,
        recordedAt: new Date(arrived.getTime() + 20 * 60_000),
      });
    }
    if (s.transferTo)
      await tx.insert(transfers).values({
        hospitalId: h.id,
        hospitalizationId: stay!.id,
        patientId: p!.id,
        kind: 'internal',
        fromDepartmentId: dep(s.department).id,
        toDepartmentId: dep(s.transferTo).id,
        reason: 'Parage chirurgical de la plaie',
        summary: 'Plaie plantaire infectée chez un diabétique, antibiothérapie en cours.',
        requestedBy: doctor,
        requestedAt: new Date(Date.now() - 3 * 3_600_000),
      });
    count += 1;
  }
  // Notes written in the past sort by their signing time; none in the future.
  await tx.execute(
    sql`update progress_notes set signed_at = least(signed_at, now() - interval '10 minutes') where hospital_id = ${h.id}`,
  );
  return count;
}
