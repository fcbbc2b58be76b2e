import type { Vitals } from '@greensen/shared/domain/triage';
import { eq, sql } from 'drizzle-orm';
import { birthDateOf, news2Of } from '../../modules/care/vital-signs.repository.js';
import type { Queryable } from '../client.js';
import {
  consultationAddenda,
  consultationDiagnoses,
  consultations,
  icd10Codes,
  users,
} from '../schema/index.js';

/**
 * The records of the demo's consultations (issue 7): realistic sections, coded diagnoses and an addendum for
 * the consultations the journey seed starts or completes. The ICD-10 codes used are inserted only when missing
 * (the shipped catalogue loader upserts them with its own labels).
 */

type Kind = 'category' | 'code';
const DEMO_ICD10: { code: string; kind: Kind; parent: string; chapter: string; fr: string; en: string }[] = [
  // The inpatient demo's diagnoses (seed/inpatient.ts).
  {
    code: 'B50.9',
    kind: 'code',
    parent: 'B50',
    chapter: 'I',
    fr: 'Paludisme à Plasmodium falciparum, sans précision',
    en: 'Plasmodium falciparum malaria, unspecified',
  },
  {
    code: 'J18.9',
    kind: 'code',
    parent: 'J18',
    chapter: 'X',
    fr: 'Pneumopathie, sans précision',
    en: 'Pneumonia, unspecified',
  },
  {
    code: 'I50.0',
    kind: 'code',
    parent: 'I50',
    chapter: 'IX',
    fr: 'Insuffisance cardiaque congestive',
    en: 'Congestive heart failure',
  },
  {
    code: 'E11.9',
    kind: 'code',
    parent: 'E11',
    chapter: 'IV',
    fr: 'Diabète sucré de type 2, sans complication',
    en: 'Type 2 diabetes mellitus without complications',
  },
  {
    code: 'A01.0',
    kind: 'code',
    parent: 'A01',
    chapter: 'I',
    fr: 'Fièvre typhoïde',
    en: 'Typhoid fever',
  },
  {
    code: 'B54',
    kind: 'category',
    parent: 'B50-B64',
    chapter: 'I',
    fr: 'Paludisme, sans précision',
    en: 'Unspecified malaria',
  },
  {
    code: 'R11',
    kind: 'category',
    parent: 'R10-R19',
    chapter: 'XVIII',
    fr: 'Nausées et vomissements',
    en: 'Nausea and vomiting',
  },
  {
    code: 'I10',
    kind: 'category',
    parent: 'I10-I15',
    chapter: 'IX',
    fr: 'Hypertension essentielle (primitive)',
    en: 'Essential (primary) hypertension',
  },
  {
    code: 'S93.4',
    kind: 'code',
    parent: 'S93',
    chapter: 'XIX',
    fr: 'Entorse et foulure de la cheville',
    en: 'Sprain and strain of ankle',
  },
  {
    code: 'J20.9',
    kind: 'code',
    parent: 'J20',
    chapter: 'X',
    fr: 'Bronchite aiguë, sans précision',
    en: 'Acute bronchitis, unspecified',
  },
  {
    code: 'O80',
    kind: 'category',
    parent: 'O80-O84',
    chapter: 'XV',
    fr: 'Accouchement unique et spontané',
    en: 'Single spontaneous delivery',
  },
  {
    code: 'A09.0',
    kind: 'code',
    parent: 'A09',
    chapter: 'I',
    fr: "Gastro-entérites et colites d'origine infectieuse, autres et non précisées",
    en: 'Other and unspecified gastroenteritis and colitis of infectious origin',
  },
  {
    code: 'E86',
    kind: 'category',
    parent: 'E70-E90',
    chapter: 'IV',
    fr: 'Hypovolémie',
    en: 'Volume depletion',
  },
  {
    code: 'T22.2',
    kind: 'code',
    parent: 'T22',
    chapter: 'XIX',
    fr: 'Brûlure du second degré de l’épaule et du membre supérieur, sauf poignet et main',
    en: 'Burn of second degree of shoulder and upper limb, except wrist and hand',
  },
  {
    code: 'J45.9',
    kind: 'code',
    parent: 'J45',
    chapter: 'X',
    fr: 'Asthme, sans précision',
    en: 'Asthma, unspecified',
  },
];

interface DemoDiagnosis {
  code?: string;
  free?: string;
  rank: 'primary' | 'secondary';
  certainty: 'confirmed' | 'suspected';
  notes?: string;
}

interface DemoRecord {
  history: string;
  currentTreatment?: string;
  allergiesConfirmed?: string[];
  examination: string;
  vitals?: Vitals;
  conclusion?: string;
  plan?: string;
  /** Only for completed consultations. */
  outcome?: 'discharge' | 'hospitalize' | 'refer' | 'follow_up' | 'deceased';
  outcomeNotes?: string;
  /** Days after today. */
  followUpInDays?: number;
  diagnoses: DemoDiagnosis[];
  addendum?: string;
}

/** By patient ("first last") of the journey seed. */
const DEMO_RECORDS: Record<string, DemoRecord> = {
  'Gloire Kalala': {
    history:
      'Vomissements répétés depuis hier soir (6 épisodes), fièvre à 38,5 °C, pas de diarrhée. Vaccinations à jour selon la mère.',
    currentTreatment: 'Paracétamol sirop 15 mg/kg donné à 6 h.',
    examination:
      'Enfant fatiguée mais consciente. Muqueuses légèrement sèches. Abdomen souple, non douloureux. Pas de raideur méningée.',
    vitals: { temperature: 38.2, heart_rate: 120, weight: 32 },
    plan: 'TDR paludisme et goutte épaisse, NFS. Réhydratation orale fractionnée.',
    diagnoses: [
      { code: 'B54', rank: 'primary', certainty: 'suspected', notes: 'En attente du TDR' },
      { code: 'R11', rank: 'secondary', certainty: 'confirmed' },
    ],
  },
  'Rémy Ilunga Banza': {
    history:
      'Céphalées occipitales depuis 3 jours. HTA connue depuis 2019, traitement arrêté il y a 2 mois faute de moyens.',
    currentTreatment: 'Aucun actuellement (amlodipine 5 mg arrêtée).',
    examination: 'TA 185/105 aux deux bras, pas de déficit neurologique, auscultation cardiaque normale.',
    vitals: { systolic_bp: 185, diastolic_bp: 105, heart_rate: 84, weight: 88 },
    plan: 'Reprise de l’amlodipine 10 mg/j. Créatininémie, ionogramme, ECG.',
    diagnoses: [{ code: 'I10', rank: 'primary', certainty: 'confirmed' }],
  },
  'Françoise Mwamba': {
    history:
      'Torsion de la cheville droite en descendant un escalier ce matin. Appui possible mais douloureux.',
    examination:
      'Œdème latéral de la cheville droite, douleur sous la malléole externe, pas de douleur osseuse (règles d’Ottawa négatives).',
    vitals: { pain: 3 },
    conclusion: 'Entorse bénigne du ligament latéral externe de la cheville droite.',
    plan: 'Glace, repos, contention souple 10 jours, paracétamol 1 g × 3/j. Reprise progressive de l’appui.',
    outcome: 'discharge',
    diagnoses: [{ code: 'S93.4', rank: 'primary', certainty: 'confirmed' }],
    addendum: 'Appel de la patiente : douleur en nette diminution, appui complet.',
  },
  'Désiré Lumbala': {
    history: 'Toux sèche depuis 10 jours, fébricule le soir, pas d’hémoptysie, pas d’amaigrissement.',
    examination: 'Quelques ronchi bilatéraux, pas de foyer. SpO2 97 % en air ambiant.',
    vitals: { temperature: 37.8, spo2: 97 },
    conclusion: 'Bronchite aiguë probablement virale.',
    plan: 'Traitement symptomatique. Réévaluation si la toux dure plus de 3 semaines (recherche de tuberculose).',
    outcome: 'follow_up',
    followUpInDays: 14,
    diagnoses: [{ code: 'J20.9', rank: 'primary', certainty: 'confirmed' }],
  },
  'Aimée Mbombo': {
    history:
      'G2P1, grossesse de 38 SA bien suivie. Contractions régulières depuis 4 h, pas de perte de liquide.',
    examination: 'Col dilaté à 4 cm, présentation céphalique, bruits du cœur fœtal à 140/min.',
    vitals: { systolic_bp: 120, diastolic_bp: 75, heart_rate: 95 },
    conclusion: 'Travail en phase active, grossesse à terme.',
    plan: 'Admission en salle de naissance, surveillance sur partogramme.',
    outcome: 'hospitalize',
    outcomeNotes: 'Salle de naissance, Maternité.',
    diagnoses: [{ code: 'O80', rank: 'primary', certainty: 'confirmed' }],
  },
  'Océane Kapinga': {
    history: 'Diarrhée liquide depuis 2 jours (5 à 6 selles par jour), sans sang, fièvre modérée.',
    examination: 'Pli cutané paresseux, yeux légèrement enfoncés, enfant réactive, boit avidement.',
    vitals: { temperature: 38.1, weight: 18 },
    conclusion: 'Gastro-entérite aiguë avec déshydratation modérée (plan B de l’OMS).',
    plan: 'SRO 75 ml/kg sur 4 h, zinc 20 mg/j pendant 10 jours, conseils alimentaires.',
    outcome: 'discharge',
    diagnoses: [
      { code: 'A09.0', rank: 'primary', certainty: 'confirmed' },
      { code: 'E86', rank: 'secondary', certainty: 'confirmed' },
    ],
  },
  'André Kiala': {
    history: 'Brûlure de l’avant-bras gauche par de l’huile chaude il y a 2 h.',
    allergiesConfirmed: [],
    examination:
      'Brûlure du 2e degré superficiel de la face antérieure de l’avant-bras gauche, environ 3 % de la surface corporelle, phlyctènes.',
    conclusion: 'Brûlure du 2e degré superficiel, 3 % de la surface corporelle.',
    plan: 'Pansement gras, antalgiques, rappel antitétanique. Contrôle du pansement dans 2 jours.',
    outcome: 'follow_up',
    followUpInDays: 2,
    diagnoses: [{ code: 'T22.2', rank: 'primary', certainty: 'confirmed' }],
  },
  'Sylvie Mpiana': {
    history:
      'Asthme connu depuis l’enfance. Crise depuis ce matin, non soulagée par 4 bouffées de salbutamol.',
    currentTreatment: 'Salbutamol inhalé à la demande.',
    examination: 'Sibilants diffus, parole possible par phrases courtes. DEP à 55 % de la valeur prédite.',
    vitals: { respiratory_rate: 26, heart_rate: 112, spo2: 93 },
    plan: 'Salbutamol en nébulisation × 3 à 20 min d’intervalle, prednisolone 40 mg.',
    diagnoses: [{ code: 'J45.9', rank: 'primary', certainty: 'confirmed' }],
  },
};

/** Inserts the demo's ICD-10 codes that are not in the catalogue yet. */
export async function ensureDemoIcd10(tx: Queryable) {
  await tx
    .insert(icd10Codes)
    .values(
      DEMO_ICD10.map((c) => ({
        code: c.code,
        kind: c.kind,
        parentCode: c.parent,
        chapter: c.chapter,
        labelFr: c.fr,
        labelEn: c.en,
        common: true,
      })),
    )
    .onConflictDoNothing();
}

const dayPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Fills a seeded consultation: its sections, its diagnoses (labels in the doctor's language) and, when
 * completed, its outcome and addendum. Consultations without a demo record keep their reason only.
 */
const news2Columns = (news2: ReturnType<typeof news2Of>) => ({
  news2Score: news2?.score ?? null,
  news2: news2 ? { ...news2 } : null,
});

export async function seedConsultationRecord(
  tx: Queryable,
  c: {
    id: string;
    hospitalId: string;
    patientId: string;
    doctorId: string;
    patientName: string;
    completedAt: Date | null;
  },
) {
  const record = DEMO_RECORDS[c.patientName];
  if (!record) return;
  const [doctor] = await tx
    .select({ language: users.languagePreference })
    .from(users)
    .where(eq(users.id, c.doctorId));
  const english = doctor?.language === 'en';
  const completed = c.completedAt !== null;
  await tx
    .update(consultations)
    .set({
      history: record.history,
      currentTreatment: record.currentTreatment ?? null,
      allergies: record.allergiesConfirmed ?? null,
      allergiesConfirmed: record.allergiesConfirmed !== undefined,
      examination: record.examination,
      vitals: record.vitals ? { ...record.vitals } : null,
      ...(record.vitals ? news2Columns(news2Of(record.vitals, await birthDateOf(tx, c.patientId))) : {}),
      conclusion: record.conclusion ?? null,
      plan: record.plan ?? null,
      outcome: completed ? (record.outcome ?? 'discharge') : null,
      outcomeNotes: record.outcomeNotes ?? null,
      followUpDate: record.followUpInDays !== undefined ? dayPlus(record.followUpInDays) : null,
      completedBy: completed ? c.doctorId : null,
      // One save per section written, roughly: the drafts the doctor's screen would have made.
      version: completed ? 6 : 4,
    })
    .where(eq(consultations.id, c.id));
  const codes = DEMO_ICD10.filter((x) => record.diagnoses.some((d) => d.code === x.code));
  const labels = new Map(codes.map((x) => [x.code, english ? x.en : x.fr]));
  const catalogue = await tx.execute<{ code: string; label_fr: string; label_en: string }>(
    sql`select code, label_fr, label_en from icd10_codes where code in (${sql.join(
      codes.map((x) => sql`${x.code}`),
      sql`, `,
    )})`,
  );
  for (const row of catalogue.rows) labels.set(row.code, english ? row.label_en : row.label_fr);
  if (record.diagnoses.length > 0) {
    await tx.insert(consultationDiagnoses).values(
      record.diagnoses.map((d) => ({
        hospitalId: c.hospitalId,
        consultationId: c.id,
        patientId: c.patientId,
        icdCode: d.code ?? null,
        label: d.code ? (labels.get(d.code) ?? d.code) : (d.free ?? ''),
        coded: Boolean(d.code),
        rank: d.rank,
        certainty: d.certainty,
        notes: d.notes ?? null,
        createdBy: c.doctorId,
      })),
    );
  }
  if (completed && record.addendum) {
    await tx.insert(consultationAddenda).values({
      hospitalId: c.hospitalId,
      consultationId: c.id,
      authorId: c.doctorId,
      text: record.addendum,
      createdAt: new Date(c.completedAt!.getTime() + 45 * 60_000),
    });
  }
}
