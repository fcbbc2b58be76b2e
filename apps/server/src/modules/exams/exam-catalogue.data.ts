/**
 * The exam catalogue shipped with the product: the common laboratory analyses and imaging studies of our
 * hospitals, with their result fields, units (SI or the units local laboratories print), plausible bounds and
 * usual adult and paediatric reference ranges (sex and age in whole years, bounds included; the first matching
 * range applies). Loaded by `ensureExamCatalogue` on every start (upsert on `code`).
 *
 * Reference ranges vary between laboratories and analysers; these are the usual textbook values (WHO
 * anaemia thresholds for haemoglobin). A hospital can adjust them later from the administration module.
 */
import type { ExamField, ExamFieldChoice, ExamKind } from '@greensen/shared/domain/exams';

export interface CatalogueEntry {
  code: string;
  kind: ExamKind;
  category: string;
  name_fr: string;
  name_en: string;
  specimen: string | null;
  /** The LOINC code of the exam as a whole (FHIR DiagnosticReport.code), when it is certain (migration 0050). */
  loinc?: string;
  fields: ExamField[];
}

const NEG_POS = (positiveFr = 'Positif', positiveEn = 'Positive'): ExamFieldChoice[] => [
  { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
  { value: 'positive', label_fr: positiveFr, label_en: positiveEn, abnormal: true },
];

const STRIP: ExamFieldChoice[] = [
  { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
  { value: 'trace', label_fr: 'Traces', label_en: 'Trace', abnormal: true },
  { value: '1+', label_fr: '+', label_en: '+', abnormal: true },
  { value: '2+', label_fr: '++', label_en: '++', abnormal: true },
  { value: '3+', label_fr: '+++', label_en: '+++', abnormal: true },
];

const CONCLUSION: ExamField = {
  key: 'conclusion',
  label_fr: 'Conclusion',
  label_en: 'Conclusion',
  type: 'choice',
  choices: [
    { value: 'normal', label_fr: 'Normal', label_en: 'Normal' },
    { value: 'abnormal', label_fr: 'Anomalie', label_en: 'Abnormal', abnormal: true },
  ],
};

const WIDAL_TITRES: ExamFieldChoice[] = [
  { value: '<1/80', label_fr: '< 1/80', label_en: '< 1/80' },
  { value: '1/80', label_fr: '1/80', label_en: '1/80' },
  { value: '1/160', label_fr: '1/160', label_en: '1/160', abnormal: true },
  { value: '1/320', label_fr: '1/320', label_en: '1/320', abnormal: true },
  { value: '>=1/640', label_fr: '≥ 1/640', label_en: '≥ 1/640', abnormal: true },
];

const num = (
  key: string,
  label_fr: string,
  label_en: string,
  unit: string,
  bounds: { min: number; max: number; decimals?: number; optional?: boolean },
  ranges: ExamField['ranges'],
  loinc?: string,
): ExamField => ({
  key,
  label_fr,
  label_en,
  type: 'number',
  unit,
  min: bounds.min,
  max: bounds.max,
  decimals: bounds.decimals ?? 1,
  ...(bounds.optional ? { optional: true } : {}),
  ranges,
  ...(loinc ? { loinc } : {}),
});

export const EXAM_CATALOGUE: CatalogueEntry[] = [
  // Hematology
  {
    code: 'NFS',
    loinc: '58410-2',
    kind: 'lab',
    category: 'hematology',
    name_fr: 'Numération formule sanguine (NFS)',
    name_en: 'Full blood count (FBC)',
    specimen: 'Sang total EDTA',
    fields: [
      num(
        'hb',
        'Hémoglobine',
        'Haemoglobin',
        'g/dL',
        { min: 1, max: 25 },
        [
          { age_max: 4, low: 11, high: 14 },
          { age_min: 5, age_max: 11, low: 11.5, high: 15.5 },
          { age_min: 12, age_max: 14, low: 12, high: 16 },
          { sex: 'F', low: 12, high: 16 },
          { sex: 'M', low: 13, high: 17 },
        ],
        '718-7',
      ),
      num(
        'hct',
        'Hématocrite',
        'Haematocrit',
        '%',
        { min: 5, max: 75 },
        [
          { age_max: 11, low: 33, high: 43 },
          { sex: 'F', low: 36, high: 46 },
          { sex: 'M', low: 40, high: 52 },
        ],
        '4544-3',
      ),
      num(
        'rbc',
        'Globules rouges',
        'Red blood cells',
        '10⁶/µL',
        { min: 0.5, max: 10, decimals: 2 },
        [
          { age_max: 11, low: 3.9, high: 5.3 },
          { sex: 'F', low: 4, high: 5.2 },
          { sex: 'M', low: 4.5, high: 5.9 },
        ],
        '789-8',
      ),
      num(
        'mcv',
        'VGM',
        'MCV',
        'fL',
        { min: 40, max: 150 },
        [
          { age_max: 11, low: 70, high: 90 },
          { low: 80, high: 100 },
        ],
        '787-2',
      ),
      num(
        'mch',
        'TCMH',
        'MCH',
        'pg',
        { min: 10, max: 50, optional: true },
        [
          { age_max: 11, low: 24, high: 31 },
          { low: 27, high: 33 },
        ],
        '785-6',
      ),
      num(
        'mchc',
        'CCMH',
        'MCHC',
        'g/dL',
        { min: 20, max: 45, optional: true },
        [{ low: 32, high: 36 }],
        '786-4',
      ),
      num(
        'wbc',
        'Globules blancs',
        'White blood cells',
        '10³/µL',
        { min: 0.1, max: 500 },
        [
          { age_max: 0, low: 6, high: 17.5 },
          { age_min: 1, age_max: 5, low: 5.5, high: 15.5 },
          { age_min: 6, age_max: 11, low: 4.5, high: 13.5 },
          { low: 4, high: 10 },
        ],
        '6690-2',
      ),
      num(
        'neut',
        'Neutrophiles',
        'Neutrophils',
        '10³/µL',
        { min: 0, max: 400 },
        [
          { age_max: 11, low: 1.5, high: 8.5 },
          { low: 1.5, high: 7 },
        ],
        '751-8',
      ),
      num(
        'lymph',
        'Lymphocytes',
        'Lymphocytes',
        '10³/µL',
        { min: 0, max: 400 },
        [
          { age_max: 5, low: 2, high: 8 },
          { age_min: 6, age_max: 11, low: 1.5, high: 6.5 },
          { low: 1, high: 4 },
        ],
        '731-0',
      ),
      num(
        'mono',
        'Monocytes',
        'Monocytes',
        '10³/µL',
        { min: 0, max: 100, decimals: 2, optional: true },
        [{ low: 0.2, high: 1 }],
        '742-7',
      ),
      num(
        'eos',
        'Éosinophiles',
        'Eosinophils',
        '10³/µL',
        { min: 0, max: 100, decimals: 2, optional: true },
        [{ high: 0.5 }],
        '711-2',
      ),
      num(
        'plt',
        'Plaquettes',
        'Platelets',
        '10³/µL',
        { min: 1, max: 2000, decimals: 0 },
        [{ low: 150, high: 400 }],
        '777-3',
      ),
    ],
  },
  {
    code: 'VS',
    kind: 'lab',
    category: 'hematology',
    name_fr: 'Vitesse de sédimentation (VS)',
    name_en: 'Erythrocyte sedimentation rate (ESR)',
    specimen: 'Sang total citraté',
    fields: [
      num('esr', 'VS 1re heure', 'ESR first hour', 'mm/h', { min: 0, max: 200, decimals: 0 }, [
        { sex: 'M', age_max: 49, high: 15 },
        { sex: 'M', high: 20 },
        { sex: 'F', age_max: 49, high: 20 },
        { sex: 'F', high: 30 },
      ]),
    ],
  },
  {
    code: 'EMMEL',
    kind: 'lab',
    category: 'hematology',
    name_fr: 'Test d’Emmel (falciformation)',
    name_en: 'Sickling test (Emmel)',
    specimen: 'Sang total EDTA',
    fields: [
      {
        key: 'result',
        label_fr: 'Falciformation',
        label_en: 'Sickling',
        type: 'choice',
        choices: NEG_POS(),
      },
    ],
  },
  {
    code: 'EHB',
    kind: 'lab',
    category: 'hematology',
    name_fr: 'Électrophorèse de l’hémoglobine',
    name_en: 'Haemoglobin electrophoresis',
    specimen: 'Sang total EDTA',
    fields: [
      {
        key: 'phenotype',
        label_fr: 'Phénotype',
        label_en: 'Phenotype',
        type: 'choice',
        choices: [
          { value: 'AA', label_fr: 'AA (normal)', label_en: 'AA (normal)' },
          {
            value: 'AS',
            label_fr: 'AS (trait drépanocytaire)',
            label_en: 'AS (sickle cell trait)',
            abnormal: true,
          },
          {
            value: 'SS',
            label_fr: 'SS (drépanocytose)',
            label_en: 'SS (sickle cell disease)',
            abnormal: true,
          },
          { value: 'SC', label_fr: 'SC', label_en: 'SC', abnormal: true },
          { value: 'AC', label_fr: 'AC', label_en: 'AC', abnormal: true },
          {
            value: 'other',
            label_fr: 'Autre (voir commentaire)',
            label_en: 'Other (see comment)',
            abnormal: true,
          },
        ],
      },
      num('hbs', 'Hb S', 'Hb S', '%', { min: 0, max: 100, optional: true }, [{ high: 0 }]),
      num('hbf', 'Hb F', 'Hb F', '%', { min: 0, max: 100, optional: true }, [
        { age_max: 1, high: 10 },
        { high: 2 },
      ]),
      { key: 'comment', label_fr: 'Commentaire', label_en: 'Comment', type: 'text', optional: true },
    ],
  },
  {
    code: 'GS-RH',
    kind: 'lab',
    category: 'immunohematology',
    name_fr: 'Groupe sanguin et rhésus',
    name_en: 'Blood group and rhesus',
    specimen: 'Sang total EDTA',
    fields: [
      {
        key: 'abo',
        label_fr: 'Groupe ABO',
        label_en: 'ABO group',
        type: 'choice',
        choices: ['A', 'B', 'AB', 'O'].map((g) => ({ value: g, label_fr: g, label_en: g })),
      },
      {
        key: 'rh',
        label_fr: 'Rhésus (D)',
        label_en: 'Rhesus (D)',
        type: 'choice',
        choices: [
          { value: 'positive', label_fr: 'Positif', label_en: 'Positive' },
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
        ],
      },
    ],
  },
  // Biochemistry
  {
    code: 'GLY',
    loinc: '14771-0',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Glycémie à jeun',
    name_en: 'Fasting blood glucose',
    specimen: 'Plasma fluoré',
    fields: [
      num(
        'glucose',
        'Glucose à jeun',
        'Fasting glucose',
        'mmol/L',
        { min: 0.5, max: 60 },
        [{ low: 3.9, high: 6 }],
        '14771-0',
      ),
    ],
  },
  {
    code: 'CREA',
    loinc: '14682-9',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Créatininémie',
    name_en: 'Serum creatinine',
    specimen: 'Sérum',
    fields: [
      num(
        'creatinine',
        'Créatinine',
        'Creatinine',
        'µmol/L',
        { min: 5, max: 3000, decimals: 0 },
        [
          { age_max: 0, low: 14, high: 34 },
          { age_min: 1, age_max: 11, low: 18, high: 62 },
          { age_min: 12, age_max: 17, low: 35, high: 90 },
          { sex: 'F', low: 44, high: 80 },
          { sex: 'M', low: 62, high: 106 },
        ],
        '14682-9',
      ),
    ],
  },
  {
    code: 'UREE',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Urée sanguine',
    name_en: 'Blood urea',
    specimen: 'Sérum',
    fields: [
      num('urea', 'Urée', 'Urea', 'mmol/L', { min: 0.1, max: 150 }, [
        { age_max: 17, low: 1.8, high: 6.4 },
        { low: 2.5, high: 7.5 },
      ]),
    ],
  },
  {
    code: 'CRP',
    loinc: '1988-5',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Protéine C réactive (CRP)',
    name_en: 'C-reactive protein (CRP)',
    specimen: 'Sérum',
    fields: [num('crp', 'CRP', 'CRP', 'mg/L', { min: 0, max: 1000 }, [{ high: 5 }], '1988-5')],
  },
  {
    code: 'TRANSA',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Transaminases (ALAT, ASAT)',
    name_en: 'Transaminases (ALT, AST)',
    specimen: 'Sérum',
    fields: [
      num(
        'alat',
        'ALAT (TGP)',
        'ALT',
        'U/L',
        { min: 0, max: 20000, decimals: 0 },
        [
          { sex: 'F', high: 35 },
          { sex: 'M', high: 45 },
        ],
        '1742-6',
      ),
      num(
        'asat',
        'ASAT (TGO)',
        'AST',
        'U/L',
        { min: 0, max: 20000, decimals: 0 },
        [
          { sex: 'F', high: 35 },
          { sex: 'M', high: 40 },
        ],
        '1920-8',
      ),
    ],
  },
  {
    code: 'BILI',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Bilirubine (totale et conjuguée)',
    name_en: 'Bilirubin (total and direct)',
    specimen: 'Sérum',
    fields: [
      num('total', 'Bilirubine totale', 'Total bilirubin', 'µmol/L', { min: 0, max: 1000 }, [
        { age_min: 1, low: 3, high: 21 },
      ]),
      num(
        'direct',
        'Bilirubine conjuguée',
        'Direct bilirubin',
        'µmol/L',
        { min: 0, max: 800, optional: true },
        [{ high: 5 }],
      ),
    ],
  },
  {
    code: 'IONO',
    kind: 'lab',
    category: 'biochemistry',
    name_fr: 'Ionogramme sanguin (Na, K, Cl)',
    name_en: 'Electrolytes (Na, K, Cl)',
    specimen: 'Sérum',
    fields: [
      num(
        'na',
        'Sodium (Na⁺)',
        'Sodium (Na⁺)',
        'mmol/L',
        { min: 90, max: 200, decimals: 0 },
        [{ low: 135, high: 145 }],
        '2951-2',
      ),
      num(
        'k',
        'Potassium (K⁺)',
        'Potassium (K⁺)',
        'mmol/L',
        { min: 1, max: 10 },
        [
          { age_max: 11, low: 3.5, high: 5.5 },
          { low: 3.5, high: 5 },
        ],
        '2823-3',
      ),
      num(
        'cl',
        'Chlore (Cl⁻)',
        'Chloride (Cl⁻)',
        'mmol/L',
        { min: 60, max: 150, decimals: 0, optional: true },
        [{ low: 98, high: 107 }],
        '2075-0',
      ),
    ],
  },
  // Parasitology
  {
    code: 'TDR-PALU',
    kind: 'lab',
    category: 'parasitology',
    name_fr: 'Test de diagnostic rapide du paludisme (TDR)',
    name_en: 'Malaria rapid diagnostic test (RDT)',
    specimen: 'Sang capillaire',
    fields: [
      {
        key: 'result',
        label_fr: 'Résultat',
        label_en: 'Result',
        type: 'choice',
        choices: [
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
          {
            value: 'positive_pf',
            label_fr: 'Positif P. falciparum',
            label_en: 'Positive P. falciparum',
            abnormal: true,
          },
          {
            value: 'positive_pan',
            label_fr: 'Positif Plasmodium non falciparum (Pan)',
            label_en: 'Positive non-falciparum Plasmodium (Pan)',
            abnormal: true,
          },
          {
            value: 'positive_mixed',
            label_fr: 'Positif mixte (P.f + Pan)',
            label_en: 'Positive mixed (P.f + Pan)',
            abnormal: true,
          },
          { value: 'invalid', label_fr: 'Invalide (à refaire)', label_en: 'Invalid (repeat)' },
        ],
      },
    ],
  },
  {
    code: 'GE',
    kind: 'lab',
    category: 'parasitology',
    name_fr: 'Goutte épaisse et frottis (paludisme)',
    name_en: 'Thick and thin blood smear (malaria)',
    specimen: 'Sang capillaire ou EDTA',
    fields: [
      {
        key: 'result',
        label_fr: 'Hématozoaires',
        label_en: 'Malaria parasites',
        type: 'choice',
        choices: NEG_POS('Présence', 'Seen'),
      },
      {
        key: 'species',
        label_fr: 'Espèce',
        label_en: 'Species',
        type: 'choice',
        optional: true,
        choices: [
          { value: 'pf', label_fr: 'P. falciparum', label_en: 'P. falciparum' },
          { value: 'pm', label_fr: 'P. malariae', label_en: 'P. malariae' },
          { value: 'po', label_fr: 'P. ovale', label_en: 'P. ovale' },
          { value: 'pv', label_fr: 'P. vivax', label_en: 'P. vivax' },
          { value: 'mixed', label_fr: 'Infection mixte', label_en: 'Mixed infection' },
        ],
      },
      num(
        'density',
        'Parasitémie',
        'Parasite density',
        'parasites/µL',
        { min: 0, max: 2_000_000, decimals: 0, optional: true },
        [{ high: 0 }],
      ),
    ],
  },
  {
    code: 'KAOP',
    kind: 'lab',
    category: 'parasitology',
    name_fr: 'Examen parasitologique des selles (KAOP)',
    name_en: 'Stool examination (ova and parasites)',
    specimen: 'Selles',
    fields: [
      {
        key: 'aspect',
        label_fr: 'Aspect',
        label_en: 'Appearance',
        type: 'choice',
        choices: [
          { value: 'formed', label_fr: 'Moulées', label_en: 'Formed' },
          { value: 'soft', label_fr: 'Molles', label_en: 'Soft' },
          { value: 'liquid', label_fr: 'Liquides', label_en: 'Watery', abnormal: true },
          {
            value: 'mucus_blood',
            label_fr: 'Glairo-sanglantes',
            label_en: 'Mucus and blood',
            abnormal: true,
          },
        ],
      },
      {
        key: 'parasites',
        label_fr: 'Parasites',
        label_en: 'Parasites',
        type: 'choice',
        choices: [
          { value: 'none', label_fr: 'Absence', label_en: 'None seen' },
          { value: 'seen', label_fr: 'Présence', label_en: 'Seen', abnormal: true },
        ],
      },
      {
        key: 'identified',
        label_fr: 'Parasites identifiés',
        label_en: 'Parasites identified',
        type: 'text',
        optional: true,
      },
    ],
  },
  // Serology
  {
    code: 'VIH',
    kind: 'lab',
    category: 'serology',
    name_fr: 'Dépistage VIH (test rapide)',
    name_en: 'HIV test (rapid)',
    specimen: 'Sang total ou sérum',
    fields: [
      {
        key: 'result',
        label_fr: 'Résultat',
        label_en: 'Result',
        type: 'choice',
        choices: [
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
          { value: 'positive', label_fr: 'Positif', label_en: 'Positive', abnormal: true },
          {
            value: 'indeterminate',
            label_fr: 'Indéterminé (à contrôler)',
            label_en: 'Indeterminate (repeat)',
            abnormal: true,
          },
        ],
      },
    ],
  },
  {
    code: 'AGHBS',
    kind: 'lab',
    category: 'serology',
    name_fr: 'Antigène HBs (hépatite B)',
    name_en: 'Hepatitis B surface antigen (HBsAg)',
    specimen: 'Sérum',
    fields: [{ key: 'result', label_fr: 'Ag HBs', label_en: 'HBsAg', type: 'choice', choices: NEG_POS() }],
  },
  {
    code: 'VHC',
    kind: 'lab',
    category: 'serology',
    name_fr: 'Anticorps anti-VHC (hépatite C)',
    name_en: 'Hepatitis C antibodies (anti-HCV)',
    specimen: 'Sérum',
    fields: [
      { key: 'result', label_fr: 'Ac anti-VHC', label_en: 'Anti-HCV', type: 'choice', choices: NEG_POS() },
    ],
  },
  {
    code: 'SYPH',
    kind: 'lab',
    category: 'serology',
    name_fr: 'Sérologie syphilis (VDRL / TPHA)',
    name_en: 'Syphilis serology (VDRL / TPHA)',
    specimen: 'Sérum',
    fields: [
      {
        key: 'vdrl',
        label_fr: 'VDRL / RPR',
        label_en: 'VDRL / RPR',
        type: 'choice',
        choices: [
          { value: 'non_reactive', label_fr: 'Non réactif', label_en: 'Non-reactive' },
          { value: 'reactive', label_fr: 'Réactif', label_en: 'Reactive', abnormal: true },
        ],
      },
      { key: 'tpha', label_fr: 'TPHA', label_en: 'TPHA', type: 'choice', choices: NEG_POS() },
      { key: 'titre', label_fr: 'Titre', label_en: 'Titre', type: 'text', optional: true },
    ],
  },
  {
    code: 'WIDAL',
    kind: 'lab',
    category: 'serology',
    name_fr: 'Sérodiagnostic de Widal et Félix',
    name_en: 'Widal test',
    specimen: 'Sérum',
    fields: [
      {
        key: 'to',
        label_fr: 'S. Typhi O (TO)',
        label_en: 'S. Typhi O (TO)',
        type: 'choice',
        choices: WIDAL_TITRES,
      },
      {
        key: 'th',
        label_fr: 'S. Typhi H (TH)',
        label_en: 'S. Typhi H (TH)',
        type: 'choice',
        choices: WIDAL_TITRES,
      },
    ],
  },
  // Urinalysis
  {
    code: 'BU',
    kind: 'lab',
    category: 'urinalysis',
    name_fr: 'Bandelette urinaire',
    name_en: 'Urine dipstick',
    specimen: 'Urines fraîches',
    fields: [
      { key: 'leukocytes', label_fr: 'Leucocytes', label_en: 'Leukocytes', type: 'choice', choices: STRIP },
      {
        key: 'nitrites',
        label_fr: 'Nitrites',
        label_en: 'Nitrites',
        type: 'choice',
        choices: NEG_POS(),
      },
      { key: 'protein', label_fr: 'Protéines', label_en: 'Protein', type: 'choice', choices: STRIP },
      { key: 'glucose', label_fr: 'Glucose', label_en: 'Glucose', type: 'choice', choices: STRIP },
      { key: 'ketones', label_fr: 'Corps cétoniques', label_en: 'Ketones', type: 'choice', choices: STRIP },
      { key: 'blood', label_fr: 'Sang', label_en: 'Blood', type: 'choice', choices: STRIP },
      num('ph', 'pH', 'pH', '', { min: 4, max: 10 }, [{ low: 4.5, high: 8 }]),
      num('density', 'Densité', 'Specific gravity', '', { min: 1, max: 1.06, decimals: 3 }, [
        { low: 1.005, high: 1.03 },
      ]),
    ],
  },
  {
    code: 'BHCG',
    kind: 'lab',
    category: 'urinalysis',
    name_fr: 'Test de grossesse urinaire (βhCG)',
    name_en: 'Urine pregnancy test (βhCG)',
    specimen: 'Urines',
    fields: [
      {
        key: 'result',
        label_fr: 'βhCG',
        label_en: 'βhCG',
        type: 'choice',
        choices: [
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
          { value: 'positive', label_fr: 'Positif', label_en: 'Positive' },
        ],
      },
    ],
  },
  // Microbiology
  {
    code: 'BK',
    kind: 'lab',
    category: 'microbiology',
    name_fr: 'Bacilloscopie des crachats (Ziehl-Neelsen)',
    name_en: 'Sputum smear microscopy (AFB)',
    specimen: 'Crachats',
    fields: [
      {
        key: 'result',
        label_fr: 'BAAR',
        label_en: 'AFB',
        type: 'choice',
        choices: [
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
          {
            value: 'scanty',
            label_fr: 'Rares (1–9 BAAR/100 champs)',
            label_en: 'Scanty (1–9 AFB/100 fields)',
            abnormal: true,
          },
          { value: '1+', label_fr: '1+', label_en: '1+', abnormal: true },
          { value: '2+', label_fr: '2+', label_en: '2+', abnormal: true },
          { value: '3+', label_fr: '3+', label_en: '3+', abnormal: true },
        ],
      },
    ],
  },
  {
    code: 'XPERT',
    kind: 'lab',
    category: 'microbiology',
    name_fr: 'GeneXpert MTB/RIF',
    name_en: 'GeneXpert MTB/RIF',
    specimen: 'Crachats',
    fields: [
      {
        key: 'mtb',
        label_fr: 'M. tuberculosis',
        label_en: 'M. tuberculosis',
        type: 'choice',
        choices: [
          { value: 'not_detected', label_fr: 'Non détecté', label_en: 'Not detected' },
          { value: 'trace', label_fr: 'Détecté (traces)', label_en: 'Detected (trace)', abnormal: true },
          { value: 'detected', label_fr: 'Détecté', label_en: 'Detected', abnormal: true },
          { value: 'invalid', label_fr: 'Invalide / erreur', label_en: 'Invalid / error' },
        ],
      },
      {
        key: 'rif',
        label_fr: 'Résistance à la rifampicine',
        label_en: 'Rifampicin resistance',
        type: 'choice',
        optional: true,
        choices: [
          { value: 'not_detected', label_fr: 'Non détectée', label_en: 'Not detected' },
          { value: 'detected', label_fr: 'Détectée', label_en: 'Detected', abnormal: true },
          { value: 'indeterminate', label_fr: 'Indéterminée', label_en: 'Indeterminate' },
        ],
      },
    ],
  },
  // Imaging
  {
    code: 'RX-THORAX',
    kind: 'imaging',
    category: 'radiology',
    name_fr: 'Radiographie du thorax (face)',
    name_en: 'Chest X-ray (PA)',
    specimen: null,
    fields: [CONCLUSION],
  },
  {
    code: 'RX-MEMBRE',
    kind: 'imaging',
    category: 'radiology',
    name_fr: 'Radiographie d’un membre',
    name_en: 'Limb X-ray',
    specimen: null,
    fields: [
      {
        key: 'conclusion',
        label_fr: 'Conclusion',
        label_en: 'Conclusion',
        type: 'choice',
        choices: [
          { value: 'normal', label_fr: 'Pas de lésion osseuse', label_en: 'No bone injury' },
          { value: 'fracture', label_fr: 'Fracture', label_en: 'Fracture', abnormal: true },
          { value: 'other', label_fr: 'Autre anomalie', label_en: 'Other abnormality', abnormal: true },
        ],
      },
    ],
  },
  {
    code: 'ECHO-ABDO',
    kind: 'imaging',
    category: 'ultrasound',
    name_fr: 'Échographie abdominale',
    name_en: 'Abdominal ultrasound',
    specimen: null,
    fields: [CONCLUSION],
  },
  {
    code: 'ECHO-OBST',
    kind: 'imaging',
    category: 'ultrasound',
    name_fr: 'Échographie obstétricale',
    name_en: 'Obstetric ultrasound',
    specimen: null,
    fields: [
      num('fetuses', 'Nombre de fœtus', 'Number of fetuses', '', { min: 0, max: 6, decimals: 0 }, []),
      {
        key: 'heart',
        label_fr: 'Activité cardiaque fœtale',
        label_en: 'Fetal heart activity',
        type: 'choice',
        choices: [
          { value: 'present', label_fr: 'Présente', label_en: 'Present' },
          { value: 'absent', label_fr: 'Absente', label_en: 'Absent', abnormal: true },
        ],
      },
      num('ga', 'Âge gestationnel', 'Gestational age', 'SA', { min: 4, max: 44, optional: true }, []),
      {
        key: 'presentation',
        label_fr: 'Présentation',
        label_en: 'Presentation',
        type: 'choice',
        optional: true,
        choices: [
          { value: 'cephalic', label_fr: 'Céphalique', label_en: 'Cephalic' },
          { value: 'breech', label_fr: 'Siège', label_en: 'Breech' },
          { value: 'transverse', label_fr: 'Transverse', label_en: 'Transverse' },
        ],
      },
      {
        key: 'fluid',
        label_fr: 'Liquide amniotique',
        label_en: 'Amniotic fluid',
        type: 'choice',
        optional: true,
        choices: [
          { value: 'normal', label_fr: 'Normal', label_en: 'Normal' },
          { value: 'oligo', label_fr: 'Oligoamnios', label_en: 'Oligohydramnios', abnormal: true },
          { value: 'poly', label_fr: 'Hydramnios', label_en: 'Polyhydramnios', abnormal: true },
        ],
      },
      { key: 'placenta', label_fr: 'Placenta', label_en: 'Placenta', type: 'text', optional: true },
    ],
  },
  {
    code: 'TDM-CRANE',
    kind: 'imaging',
    category: 'ct',
    name_fr: 'Scanner cérébral (TDM)',
    name_en: 'CT scan of the head',
    specimen: null,
    fields: [],
  },
];
