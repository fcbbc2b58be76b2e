import {
  levelRank,
  suggestTriageLevel,
  TARGET_MINUTES,
  type TriageScale,
  type Vitals,
} from '@greensen/shared/domain/triage';
import { eq, inArray, sql } from 'drizzle-orm';
import { nextSequenceValue } from '../../lib/sequences.js';
import { news2Of, birthDateOf as storedBirthDate } from '../../modules/care/vital-signs.repository.js';
import type { Queryable } from '../client.js';
import {
  admissions,
  consultations,
  departments,
  executions,
  hospitals,
  patients,
  triageRecords,
  users,
} from '../schema/index.js';
import { ensureDemoIcd10, seedConsultationRecord } from './consultations.js';

type State = 'waiting' | 'assigned' | 'in_consultation' | 'completed' | 'hospitalized' | 'cancelled';

interface DemoVisit {
  hospital: 'HGG' | 'CDF';
  first: string;
  last: string;
  sex: 'F' | 'M';
  birth: string | { age: number };
  phone?: string;
  /** Absent: nobody asked yet; `[]`: no known allergy (issue 25). */
  allergies?: string[];
  department: string;
  type: 'outpatient' | 'emergency' | 'maternity' | 'inpatient';
  reason: string;
  state: State;
  /** Minutes since arrival. */
  arrived: number;
  vitals?: Vitals;
  discriminators?: string[];
  complaint?: string;
  doctor?: string;
}

const VISITS: DemoVisit[] = [
  // Hôpital Général de Greensen (FRENCH scale)
  {
    hospital: 'HGG',
    first: 'Éloïse',
    last: 'Kabongo',
    sex: 'F',
    birth: '1988-03-14',
    phone: '+243810000001',
    allergies: ['Pénicilline'],
    department: 'URG',
    type: 'emergency',
    reason: 'Douleur thoracique',
    state: 'waiting',
    arrived: 35,
    vitals: { heart_rate: 118, systolic_bp: 150, spo2: 95, pain: 7, temperature: 37.2 },
    complaint: 'Douleur thoracique depuis 2 h',
  },
  {
    hospital: 'HGG',
    first: 'Jean-Pierre',
    last: 'Mbuyi',
    sex: 'M',
    birth: { age: 62 },
    phone: '+243810000002',
    allergies: [],
    department: 'URG',
    type: 'emergency',
    reason: 'Dyspnée',
    state: 'waiting',
    arrived: 12,
    vitals: { respiratory_rate: 32, spo2: 89, heart_rate: 110, temperature: 38.5 },
    complaint: 'Essoufflement, toux fébrile',
  },
  {
    hospital: 'HGG',
    first: 'Céline',
    last: 'Tshilombo',
    sex: 'F',
    birth: '2001-07-02',
    allergies: [],
    department: 'MED',
    type: 'outpatient',
    reason: 'Céphalées',
    state: 'waiting',
    arrived: 50,
  },
  {
    hospital: 'HGG',
    first: 'Héritier',
    last: 'Kasongo',
    sex: 'M',
    birth: '1995-11-20',
    phone: '+243810000004',
    department: 'URG',
    type: 'emergency',
    reason: 'Plaie de la main',
    state: 'assigned',
    arrived: 40,
    vitals: { heart_rate: 88, pain: 5, trauma: true },
    complaint: 'Plaie profonde main gauche',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Bénédicte',
    last: 'Ngalula',
    sex: 'F',
    birth: '1979-01-30',
    allergies: ['Aspirine', 'Arachide'],
    department: 'URG',
    type: 'emergency',
    reason: 'Fièvre',
    state: 'assigned',
    arrived: 95,
    vitals: { temperature: 39.4, heart_rate: 104 },
    complaint: 'Fièvre à 39 °C depuis 3 jours',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Joël',
    last: 'Mukendi',
    sex: 'M',
    birth: '1966-05-05',
    department: 'MED',
    type: 'outpatient',
    reason: 'Suivi diabète',
    state: 'assigned',
    arrived: 70,
    vitals: { glycaemia: 14.2, systolic_bp: 145 },
    complaint: 'Contrôle glycémique',
    doctor: 'medecin2@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Gloire',
    last: 'Kalala',
    sex: 'F',
    birth: '2015-09-12',
    department: 'URG',
    type: 'emergency',
    reason: 'Vomissements',
    state: 'in_consultation',
    arrived: 60,
    vitals: { temperature: 38.2, heart_rate: 120, pain: 4 },
    complaint: 'Vomissements répétés',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Rémy',
    last: 'Ilunga Banza',
    sex: 'M',
    birth: '1983-12-01',
    department: 'MED',
    type: 'outpatient',
    reason: 'Hypertension',
    state: 'in_consultation',
    arrived: 45,
    vitals: { systolic_bp: 185, diastolic_bp: 105 },
    complaint: 'Céphalées et tension élevée',
    doctor: 'medecin2@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Françoise',
    last: 'Mwamba',
    sex: 'F',
    birth: '1990-02-17',
    department: 'URG',
    type: 'emergency',
    reason: 'Entorse',
    state: 'completed',
    arrived: 240,
    vitals: { pain: 3, trauma: true },
    complaint: 'Entorse cheville droite',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Désiré',
    last: 'Lumbala',
    sex: 'M',
    birth: { age: 45 },
    department: 'MED',
    type: 'outpatient',
    reason: 'Toux',
    state: 'completed',
    arrived: 300,
    vitals: { temperature: 37.8 },
    complaint: 'Toux sèche',
    doctor: 'medecin2@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Aimée',
    last: 'Mbombo',
    sex: 'F',
    birth: '1997-04-08',
    department: 'MAT',
    type: 'maternity',
    reason: 'Contractions',
    state: 'hospitalized',
    arrived: 180,
    vitals: { systolic_bp: 120, heart_rate: 95, pain: 6 },
    complaint: 'Contractions régulières, 38 SA',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'HGG',
    first: 'Noël',
    last: 'Tshibangu',
    sex: 'M',
    birth: '1972-12-25',
    department: 'URG',
    type: 'emergency',
    reason: 'Malaise',
    state: 'cancelled',
    arrived: 150,
  },
  {
    hospital: 'HGG',
    first: 'Grâce',
    last: 'Mbuyi',
    sex: 'F',
    birth: '1990-04-12',
    phone: '+243812345678',
    department: 'MAT',
    type: 'maternity',
    reason: 'Consultation prénatale',
    state: 'waiting',
    arrived: 20,
    vitals: { systolic_bp: 118, heart_rate: 82 },
    complaint: 'Suivi de grossesse',
  },
  {
    hospital: 'HGG',
    first: 'Océane',
    last: 'Kapinga',
    sex: 'F',
    birth: '2019-06-30',
    department: 'PED',
    type: 'outpatient',
    reason: 'Diarrhée',
    state: 'completed',
    arrived: 400,
    vitals: { temperature: 38.1 },
    complaint: 'Diarrhée depuis 2 jours',
    doctor: 'medecin2@greensen.test',
  },
  // Clinique du Fleuve (SATS scale)
  {
    hospital: 'CDF',
    first: 'Thérèse',
    last: 'Nzuzi',
    sex: 'F',
    birth: '1958-08-19',
    allergies: ['Sulfamides'],
    department: 'URG',
    type: 'emergency',
    reason: 'Confusion',
    state: 'waiting',
    arrived: 25,
    vitals: {
      respiratory_rate: 24,
      heart_rate: 125,
      systolic_bp: 85,
      temperature: 38.7,
      avpu: 'V',
      mobility: 'with_help',
      trauma: false,
    },
    complaint: 'Confusion et fièvre',
  },
  {
    hospital: 'CDF',
    first: 'Dieudonné',
    last: 'Makiese',
    sex: 'M',
    birth: '1986-10-03',
    department: 'URG',
    type: 'emergency',
    reason: 'Chute',
    state: 'waiting',
    arrived: 15,
    vitals: {
      respiratory_rate: 16,
      heart_rate: 92,
      systolic_bp: 130,
      temperature: 36.8,
      avpu: 'A',
      mobility: 'walking',
      trauma: true,
    },
    discriminators: ['fracture_closed'],
    complaint: 'Chute, douleur au poignet',
  },
  {
    hospital: 'CDF',
    first: 'Ruth',
    last: 'Mavinga',
    sex: 'F',
    birth: { age: 30 },
    department: 'MED',
    type: 'outpatient',
    reason: 'Douleurs abdominales',
    state: 'assigned',
    arrived: 55,
    vitals: {
      respiratory_rate: 18,
      heart_rate: 98,
      systolic_bp: 110,
      temperature: 37.5,
      avpu: 'A',
      mobility: 'walking',
      trauma: false,
    },
    discriminators: ['abdominal_pain'],
    complaint: 'Douleurs abdominales',
    doctor: 'medecin@greensen.test',
  },
  {
    hospital: 'CDF',
    first: 'Michel',
    last: 'Lutete',
    sex: 'M',
    birth: '1975-03-22',
    department: 'MED',
    type: 'outpatient',
    reason: 'Bilan',
    state: 'assigned',
    arrived: 35,
    vitals: {
      respiratory_rate: 14,
      heart_rate: 76,
      systolic_bp: 128,
      temperature: 36.6,
      avpu: 'A',
      mobility: 'walking',
      trauma: false,
    },
    complaint: 'Bilan de santé',
    doctor: 'medecin.cdf@greensen.test',
  },
  {
    hospital: 'CDF',
    first: 'Sylvie',
    last: 'Mpiana',
    sex: 'F',
    birth: '1993-01-11',
    department: 'MED',
    type: 'outpatient',
    reason: 'Asthme',
    state: 'in_consultation',
    arrived: 65,
    vitals: {
      respiratory_rate: 26,
      heart_rate: 112,
      systolic_bp: 125,
      temperature: 37,
      avpu: 'A',
      mobility: 'walking',
      trauma: false,
      spo2: 93,
    },
    discriminators: ['shortness_of_breath_acute'],
    complaint: 'Crise d’asthme',
    doctor: 'medecin.cdf@greensen.test',
  },
  {
    hospital: 'CDF',
    first: 'André',
    last: 'Kiala',
    sex: 'M',
    birth: '1969-07-07',
    department: 'URG',
    type: 'emergency',
    reason: 'Brûlure',
    state: 'completed',
    arrived: 280,
    vitals: {
      respiratory_rate: 18,
      heart_rate: 100,
      systolic_bp: 135,
      temperature: 37,
      avpu: 'A',
      mobility: 'walking',
      trauma: true,
    },
    discriminators: ['burn_other'],
    complaint: 'Brûlure avant-bras',
    doctor: 'medecin@greensen.test',
  },
];

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
function birthDateOf(b: DemoVisit['birth']): { date: string; estimated: boolean } {
  if (typeof b === 'string') return { date: b, estimated: false };
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - b.age);
  return { date: d.toISOString().slice(0, 10), estimated: true };
}

/**
 * The demo's patient journey: about twenty patients at HGG (FRENCH triage) and CDF (SATS) with admissions in
 * every state, triage records, and executions assigned to medecin@ and medecin2@. Runs in the demo seed's
 * transaction, after the hospitals, departments and accounts exist.
 */
export async function seedJourney(tx: Queryable): Promise<{ patients: number; admissions: number }> {
  const hs = await tx
    .select()
    .from(hospitals)
    .where(inArray(hospitals.code, ['HGG', 'CDF']));
  const deps = await tx.select().from(departments);
  const emails = [
    ...new Set(VISITS.flatMap((v) => (v.doctor ? [v.doctor] : [])).concat('infirmier@greensen.test')),
  ];
  const us = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, emails));
  const userId = (email: string) => us.find((u) => u.email === email)?.id;
  const nurse = userId('infirmier@greensen.test');
  await ensureDemoIcd10(tx);
  let count = 0;
  for (const v of VISITS) {
    const h = hs.find((x) => x.code === v.hospital);
    const dep = deps.find((d) => d.hospitalId === h?.id && d.code === v.department);
    if (!h || !dep) continue;
    const birth = birthDateOf(v.birth);
    const record = await nextSequenceValue(tx, h.id, 'patient_record');
    const [p] = await tx
      .insert(patients)
      .values({
        hospitalId: h.id,
        recordNumber: `${h.code}-${String(record).padStart(6, '0')}`,
        firstName: v.first,
        lastName: v.last,
        sex: v.sex,
        birthDate: birth.date,
        birthDateEstimated: birth.estimated,
        phone: v.phone ?? null,
        allergies: v.allergies ?? [],
        allergiesRecorded: v.allergies !== undefined,
        createdAt: ago(v.arrived + 5),
      })
      .returning({ id: patients.id });
    const day = await tx.execute<{ d: string }>(
      sql`select (now() at time zone ${h.timeZone})::date::text as d`,
    );
    const queueDate = day.rows[0]!.d;
    const queueNumber = await nextSequenceValue(tx, h.id, `queue:${queueDate}`);
    const arrivedAt = ago(v.arrived);
    const closed = ['completed', 'hospitalized', 'cancelled'].includes(v.state);
    const [a] = await tx
      .insert(admissions)
      .values({
        hospitalId: h.id,
        patientId: p!.id,
        departmentId: dep.id,
        admissionType: v.type,
        reason: v.reason,
        status: v.state,
        queueDate,
        queueNumber,
        admittedAt: arrivedAt,
        cancelReason: v.state === 'cancelled' ? 'Patient parti avant la consultation' : null,
        cancelledAt: v.state === 'cancelled' ? ago(v.arrived - 30) : null,
        closedAt: closed ? ago(Math.max(v.arrived - 60, 1)) : null,
      })
      .returning({ id: admissions.id });
    count += 1;
    if (v.vitals && nurse) {
      const scale: TriageScale = h.triageScale;
      const s = suggestTriageLevel(scale, v.vitals, v.discriminators ?? []);
      const rank = levelRank(scale, s.level);
      const news2 = news2Of(v.vitals, await storedBirthDate(tx, p!.id));
      const [t] = await tx
        .insert(triageRecords)
        .values({
          hospitalId: h.id,
          admissionId: a!.id,
          patientId: p!.id,
          scale,
          temperature: v.vitals.temperature ?? null,
          heartRate: v.vitals.heart_rate ?? null,
          respiratoryRate: v.vitals.respiratory_rate ?? null,
          systolicBp: v.vitals.systolic_bp ?? null,
          diastolicBp: v.vitals.diastolic_bp ?? null,
          spo2: v.vitals.spo2 ?? null,
          glycaemia: v.vitals.glycaemia ?? null,
          pain: v.vitals.pain ?? null,
          avpu: v.vitals.avpu ?? null,
          mobility: v.vitals.mobility ?? null,
          trauma: v.vitals.trauma ?? null,
          chiefComplaint: v.complaint ?? v.reason,
          discriminators: v.discriminators ?? [],
          tews: s.scale === 'SATS' ? s.tews : null,
          suggestedLevel: s.level,
          suggestionReasons: s.reasons,
          level: s.level,
          levelRank: rank,
          targetMinutes: TARGET_MINUTES[s.level],
          news2Score: news2?.score ?? null,
          news2: news2 ? { ...news2 } : null,
          recordedBy: nurse,
          recordedAt: ago(v.arrived - 3),
        })
        .returning({ id: triageRecords.id });
      await tx
        .update(admissions)
        .set({
          triageId: t!.id,
          triageLevel: s.level,
          triageRank: rank,
          triageTargetMinutes: TARGET_MINUTES[s.level],
        })
        .where(eq(admissions.id, a!.id));
    }
    const doctorId = v.doctor ? userId(v.doctor) : undefined;
    if (doctorId && v.state !== 'waiting' && v.state !== 'cancelled') {
      const started = v.state === 'assigned' ? null : ago(Math.max(v.arrived - 20, 2));
      const done = v.state === 'completed' || v.state === 'hospitalized';
      const finished = done ? ago(Math.max(v.arrived - 20 - 15, 1)) : null;
      const [e] = await tx
        .insert(executions)
        .values({
          hospitalId: h.id,
          admissionId: a!.id,
          patientId: p!.id,
          doctorId,
          status: v.state === 'assigned' ? 'assigned' : done ? 'completed' : 'in_progress',
          scheduledAt: ago(v.arrived - 10),
          startedAt: started,
          completedAt: finished,
        })
        .returning({ id: executions.id });
      if (started) {
        const [c] = await tx
          .insert(consultations)
          .values({
            hospitalId: h.id,
            admissionId: a!.id,
            patientId: p!.id,
            departmentId: dep.id,
            doctorId,
            executionId: e!.id,
            reason: v.reason,
            status: done ? 'completed' : 'in_progress',
            startedAt: started,
            completedAt: finished,
          })
          .returning({ id: consultations.id });
        await seedConsultationRecord(tx, {
          id: c!.id,
          hospitalId: h.id,
          patientId: p!.id,
          doctorId,
          patientName: `${v.first} ${v.last}`,
          completedAt: finished,
        });
      }
    }
  }
  return { patients: count, admissions: count };
}
