import {
  ageInYears,
  computeExamResults,
  type ExamField,
  type ExamStatus,
  type ExamValue,
  PERFORMING_DEPARTMENT_KIND,
} from '@greensen/shared/domain/exams';
import { and, eq, inArray } from 'drizzle-orm';
import { nextSequenceValue } from '../../lib/sequences.js';
import { ensureExamCatalogue } from '../../modules/exams/exam-catalogue.js';
import { EXAM_ORDER_SEQUENCE, formatOrderNumber } from '../../modules/exams/exams.repository.js';
import type { Queryable } from '../client.js';
import {
  consultations,
  departments,
  examCatalogue,
  examOrders,
  hospitals,
  patients,
  users,
} from '../schema/index.js';

interface DemoOrder {
  /** `Prénom Nom` of a journey patient at HGG. */
  patient: string;
  exam: string;
  status: ExamStatus;
  urgency: 'routine' | 'urgent';
  requester: string;
  clinicalInfo: string;
  /** Minutes since the request. */
  requested: number;
  values?: Record<string, ExamValue>;
  report?: string;
  acknowledged?: boolean;
  cancelReason?: string;
}

const DOC = 'medecin@greensen.test';
const DOC2 = 'medecin2@greensen.test';
const TECH = 'labo@greensen.test';
const BIO = 'biologiste@greensen.test';
const HEAD = 'chef@greensen.test';

/**
 * Orders in every status for the journey's patients at HGG: the laboratory has work waiting (requested, in
 * progress, results to validate), medecin@ and medecin2@ have validated abnormal results to acknowledge. The
 * malaria test of Gloire Kalala (in progress, urgent) is the one the end-to-end test completes.
 */
const ORDERS: DemoOrder[] = [
  {
    patient: 'Gloire Kalala',
    exam: 'TDR-PALU',
    status: 'in_progress',
    urgency: 'urgent',
    requester: DOC,
    clinicalInfo: 'Fièvre et vomissements répétés',
    requested: 40,
  },
  {
    patient: 'Gloire Kalala',
    exam: 'NFS',
    status: 'completed',
    urgency: 'urgent',
    requester: DOC,
    clinicalInfo: 'Fièvre, pâleur',
    requested: 42,
    values: { hb: 9.1, hct: 28, rbc: 3.6, mcv: 76, wbc: 14.2, neut: 9.8, lymph: 3.1, plt: 132 },
  },
  {
    patient: 'Bénédicte Ngalula',
    exam: 'NFS',
    status: 'requested',
    urgency: 'urgent',
    requester: DOC,
    clinicalInfo: 'Fièvre à 39 °C depuis 3 jours',
    requested: 25,
  },
  {
    patient: 'Bénédicte Ngalula',
    exam: 'GE',
    status: 'validated',
    urgency: 'urgent',
    requester: DOC,
    clinicalInfo: 'Fièvre à 39 °C depuis 3 jours, suspicion de paludisme',
    requested: 80,
    values: { result: 'positive', species: 'pf', density: 48000 },
  },
  {
    patient: 'Rémy Ilunga Banza',
    exam: 'CREA',
    status: 'validated',
    urgency: 'routine',
    requester: DOC2,
    clinicalInfo: 'HTA sévère, bilan rénal',
    requested: 35,
    values: { creatinine: 98 },
    acknowledged: true,
  },
  {
    patient: 'Rémy Ilunga Banza',
    exam: 'IONO',
    status: 'requested',
    urgency: 'routine',
    requester: DOC2,
    clinicalInfo: 'HTA sévère',
    requested: 34,
  },
  {
    patient: 'Joël Mukendi',
    exam: 'GLY',
    status: 'validated',
    urgency: 'urgent',
    requester: DOC2,
    clinicalInfo: 'Diabète de type 2, glycémie capillaire à 14,2 mmol/L',
    requested: 65,
    values: { glucose: 13.8 },
  },
  {
    patient: 'Désiré Lumbala',
    exam: 'RX-THORAX',
    status: 'completed',
    urgency: 'routine',
    requester: DOC2,
    clinicalInfo: 'Toux sèche depuis 3 semaines',
    requested: 280,
    values: { conclusion: 'abnormal' },
    report: 'Opacité apicale droite avec image cavitaire. À corréler à la bacilloscopie.',
  },
  {
    patient: 'Désiré Lumbala',
    exam: 'BK',
    status: 'requested',
    urgency: 'routine',
    requester: DOC2,
    clinicalInfo: 'Toux chronique, suspicion de tuberculose',
    requested: 279,
  },
  {
    patient: 'Désiré Lumbala',
    exam: 'CRP',
    status: 'validated',
    urgency: 'routine',
    requester: DOC2,
    clinicalInfo: 'Toux fébrile',
    requested: 290,
    values: { crp: 38 },
  },
  {
    patient: 'Françoise Mwamba',
    exam: 'RX-MEMBRE',
    status: 'validated',
    urgency: 'routine',
    requester: DOC,
    clinicalInfo: 'Entorse cheville droite, éliminer une fracture',
    requested: 220,
    values: { conclusion: 'normal' },
    report: 'Cheville droite face et profil : pas de trait de fracture. Tuméfaction des parties molles.',
    acknowledged: true,
  },
  {
    patient: 'Éloïse Kabongo',
    exam: 'TRANSA',
    status: 'cancelled',
    urgency: 'routine',
    requester: DOC,
    clinicalInfo: 'Bilan hépatique',
    requested: 30,
    cancelReason: 'Prescrit en double',
  },
  {
    patient: 'Aimée Mbombo',
    exam: 'ECHO-OBST',
    status: 'validated',
    urgency: 'urgent',
    requester: HEAD,
    clinicalInfo: 'Contractions régulières, 38 SA',
    requested: 170,
    values: { fetuses: 1, heart: 'present', ga: 38, presentation: 'cephalic', fluid: 'normal' },
    report: 'Grossesse monofœtale évolutive, présentation céphalique, liquide amniotique normal.',
    acknowledged: true,
  },
];

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** The demo's exam orders (runs in the demo seed's transaction, after the journey). */
export async function seedExams(tx: Queryable): Promise<{ orders: number }> {
  await ensureExamCatalogue(tx);
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  if (!h) return { orders: 0 };
  const catalogue = await tx.select().from(examCatalogue);
  const deps = await tx.select().from(departments).where(eq(departments.hospitalId, h.id));
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [DOC, DOC2, TECH, BIO, HEAD]));
  const userId = (email: string) => people.find((u) => u.email === email)?.id ?? null;
  const pats = await tx.select().from(patients).where(eq(patients.hospitalId, h.id));
  const cons = await tx
    .select({
      id: consultations.id,
      patientId: consultations.patientId,
      admissionId: consultations.admissionId,
    })
    .from(consultations)
    .where(and(eq(consultations.hospitalId, h.id)));
  let count = 0;
  for (const o of ORDERS) {
    const patient = pats.find((p) => `${p.firstName} ${p.lastName}` === o.patient);
    const exam = catalogue.find((c) => c.code === o.exam);
    const requester = userId(o.requester);
    if (!patient || !exam || !requester) continue;
    const dep = deps.find((d) => d.kind === PERFORMING_DEPARTMENT_KIND[exam.kind]);
    const consultation = cons.find((c) => c.patientId === patient.id) ?? null;
    const performer = exam.kind === 'lab' ? userId(TECH) : userId(HEAD);
    const validator = exam.kind === 'lab' ? userId(BIO) : userId(HEAD);
    const requestedAt = ago(o.requested);
    const startedAt = o.status === 'requested' || o.status === 'cancelled' ? null : ago(o.requested - 10);
    const resultedAt = o.values ? ago(Math.max(o.requested - 25, 2)) : null;
    const validatedAt = o.status === 'validated' ? ago(Math.max(o.requested - 30, 1)) : null;
    let results = null;
    let abnormal = false;
    if (o.values) {
      const computed = computeExamResults(exam.fields as ExamField[], o.values, {
        sex: patient.sex,
        age: ageInYears(patient.birthDate, startedAt ?? requestedAt),
      });
      results = computed.results;
      abnormal = computed.abnormal;
    }
    const n = await nextSequenceValue(tx, h.id, EXAM_ORDER_SEQUENCE);
    await tx.insert(examOrders).values({
      hospitalId: h.id,
      orderNumber: formatOrderNumber(h.code, n),
      patientId: patient.id,
      consultationId: consultation?.id ?? null,
      admissionId: consultation?.admissionId ?? null,
      examId: exam.id,
      departmentId: dep?.id ?? null,
      urgency: o.urgency,
      clinicalInfo: o.clinicalInfo,
      status: o.status,
      results,
      report: o.report ?? null,
      abnormal,
      requestedBy: requester,
      requestedAt,
      startedBy: startedAt ? performer : null,
      startedAt,
      resultedBy: resultedAt ? performer : null,
      resultedAt,
      validatedBy: validatedAt ? validator : null,
      validatedAt,
      acknowledgedAt: o.acknowledged && validatedAt ? ago(Math.max(o.requested - 35, 0)) : null,
      cancelReason: o.cancelReason ?? null,
      cancelledBy: o.cancelReason ? requester : null,
      cancelledAt: o.cancelReason ? ago(o.requested - 5) : null,
      version: 1 + [startedAt, resultedAt, validatedAt, o.cancelReason].filter(Boolean).length,
    });
    count += 1;
  }
  return { orders: count };
}
