import type { DocumentKind, DocumentLanguage } from '@greensen/shared/contracts/documents';

/**
 * The variables a document model's body may use, by kind (decision 0023). Every value is plain data (strings,
 * numbers, booleans, arrays, plain objects): dates and amounts come formatted in the hospital's time zone and
 * language, so a body needs no code to print them. The demo data has every variable and a row in every list: it
 * is what a body is checked against on save and what the preview shows.
 */

export type Vars = Record<string, unknown>;
type Group = 'consultation' | 'stay' | 'prescription' | 'exam' | 'invoice';

export const KIND_GROUPS: Readonly<Record<DocumentKind, readonly Group[]>> = {
  consultation_report: ['consultation'],
  medical_certificate: ['consultation', 'stay'],
  sick_leave_certificate: ['consultation', 'stay'],
  referral_letter: ['consultation', 'stay'],
  prescription: ['prescription'],
  discharge_summary: ['stay'],
  exam_results_report: ['exam'],
  invoice: ['invoice'],
  receipt: ['invoice'],
  free_letter: ['consultation', 'stay'],
};

const common = (lang: DocumentLanguage) => ({
  hospital: {
    name: 'Hôpital Général de Goma',
    code: 'HGG',
    address: 'Avenue du Lac 12, Goma',
    phones: '+243 81 000 00 00',
    header:
      lang === 'fr'
        ? 'République Démocratique du Congo — Ministère de la Santé'
        : 'Democratic Republic of the Congo — Ministry of Health',
    footer: lang === 'fr' ? 'Urgences 24 h/24' : 'Emergencies 24/7',
  },
  author: {
    full_name: 'Awa Diallo',
    title: 'Dr.',
    display_name: 'Dr. Awa Diallo',
    role: lang === 'fr' ? 'Médecin' : 'Doctor',
    department: lang === 'fr' ? 'Médecine interne' : 'Internal medicine',
  },
  patient: {
    full_name: 'Zoë Łukasz-Öztürk Niño',
    first_name: 'Zoë',
    last_name: 'Łukasz-Öztürk Niño',
    record_number: 'HGG-000123',
    sex: 'F',
    sex_label: lang === 'fr' ? 'Féminin' : 'Female',
    birth_date: '29/02/1984',
    age: 42,
    address: 'Quartier Himbi, Goma',
    phone: '+243 81 234 56 78',
    allergies: lang === 'fr' ? 'Pénicillines' : 'Penicillins',
  },
  date: {
    today: '25/11/2026',
    today_long: lang === 'fr' ? '25 novembre 2026' : '25 November 2026',
    time: '10:30',
  },
});

const groups = (lang: DocumentLanguage): Record<Group, Vars> => {
  const fr = lang === 'fr';
  return {
    consultation: {
      visit: {
        date: '25/11/2026',
        department: fr ? 'Médecine interne' : 'Internal medicine',
        reason: fr ? 'Fièvre depuis trois jours' : 'Fever for three days',
      },
      consultation: {
        date: '25/11/2026',
        reason: fr ? 'Fièvre et céphalées' : 'Fever and headache',
        history: fr ? 'Pas d’antécédent notable.' : 'No notable history.',
        current_treatment: fr ? 'Aucun' : 'None',
        examination: fr
          ? 'Patiente fébrile, pas de raideur de nuque.'
          : 'Febrile patient, no neck stiffness.',
        vitals: 'T 38,9 °C · FC 102/min · TA 118/76 mmHg · SpO₂ 97 %',
        conclusion: fr ? 'Paludisme simple.' : 'Uncomplicated malaria.',
        plan: fr
          ? 'Traitement par artéméther-luméfantrine, contrôle à J3.'
          : 'Artemether-lumefantrine, review on day 3.',
        outcome: fr ? 'Retour à domicile' : 'Home',
        follow_up_date: '28/11/2026',
      },
      diagnoses: [
        {
          code: 'B54',
          label: fr ? 'Paludisme, sans précision' : 'Unspecified malaria',
          primary: true,
          certainty: fr ? 'Confirmé' : 'Confirmed',
        },
      ],
    },
    stay: {
      stay: {
        admitted_on: '20/11/2026',
        discharged_on: '25/11/2026',
        length_days: 5,
        department: fr ? 'Médecine interne' : 'Internal medicine',
        reason: fr ? 'Paludisme grave' : 'Severe malaria',
        discharge_mode: fr ? 'Retour à domicile' : 'Home',
        summary: fr ? 'Évolution favorable sous artésunate IV.' : 'Good response to IV artesunate.',
        treatments: fr ? 'Artéméther-luméfantrine 3 jours' : 'Artemether-lumefantrine for 3 days',
        follow_up_date: '02/12/2026',
        diagnoses: [
          {
            code: 'B50.9',
            label: fr ? 'Paludisme à Plasmodium falciparum' : 'Plasmodium falciparum malaria',
          },
        ],
        given: [
          {
            medication: fr ? 'Artésunate 60 mg' : 'Artesunate 60 mg',
            doses: 5,
            from: '20/11/2026',
            to: '22/11/2026',
          },
        ],
        results: [
          {
            exam: fr ? 'Goutte épaisse' : 'Thick blood film',
            date: '20/11/2026',
            abnormal: true,
            report: fr ? 'P. falciparum, 2 %' : 'P. falciparum, 2%',
          },
        ],
        follow_up: fr
          ? '02/12/2026 09:00 — Dr Lukusa (Médecine interne)'
          : '02/12/2026 09:00 — Dr Lukusa (Internal medicine)',
      },
    },
    prescription: {
      prescription: {
        number: 'ORD-HGG-2026-000042',
        date: '25/11/2026',
        weight_kg: '62',
        notes: fr ? 'À prendre au cours des repas.' : 'Take with meals.',
        lines: [
          {
            medication: fr ? 'Paracétamol' : 'Paracetamol',
            strength: '500 mg',
            form: fr ? 'comprimé' : 'tablet',
            dose: fr ? '1 comprimé' : '1 tablet',
            route: fr ? 'orale' : 'oral',
            frequency: fr ? '3 fois par jour' : '3 times a day',
            duration: fr ? '3 jours' : '3 days',
            quantity: 9,
            instructions: fr ? 'Si fièvre' : 'If fever',
          },
        ],
      },
    },
    exam: {
      exam: {
        number: 'HGG-EX-000042',
        name: fr ? 'Numération formule sanguine' : 'Full blood count',
        category: fr ? 'Hématologie' : 'Haematology',
        specimen: fr ? 'Sang total' : 'Whole blood',
        requested_at: '24/11/2026 08:10',
        validated_at: '24/11/2026 11:45',
        requested_by: 'Dr. Awa Diallo',
        validated_by: 'Dr. Jean Mbala',
        clinical_info: fr ? 'Fièvre' : 'Fever',
        report: fr ? 'Anémie modérée.' : 'Moderate anaemia.',
        abnormal: true,
        results: [
          {
            name: fr ? 'Hémoglobine' : 'Haemoglobin',
            value: '9,8',
            unit: 'g/dL',
            reference: '12 – 16',
            flag: 'low',
            flag_label: fr ? 'Bas' : 'Low',
            abnormal: true,
          },
        ],
      },
    },
    invoice: {
      invoice: {
        number: 'FAC-HGG-2026-000042',
        date: '25/11/2026',
        currency: 'CDF',
        lines: [
          {
            label: fr ? 'Consultation' : 'Consultation',
            quantity: 1,
            unit_price: '10 000',
            amount: '10 000',
          },
        ],
        total: '10 000',
        paid: '10 000',
        balance: '0',
      },
    },
  };
};

/** The demo variables of a kind (every variable, one row in every list). */
export function demoVariables(kind: DocumentKind, lang: DocumentLanguage): Vars {
  const g = groups(lang);
  return Object.assign(common(lang), ...KIND_GROUPS[kind].map((name) => g[name]));
}

/** A value of the same shape with nothing in it: what a group becomes when the source does not have it. */
export function emptied(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptied(v)]));
  if (typeof value === 'boolean') return false;
  return '';
}

/** The empty variables of a kind's groups, to be overwritten by what the source gives. */
export function emptyGroups(kind: DocumentKind): Vars {
  const g = groups('fr');
  return Object.assign({}, ...KIND_GROUPS[kind].map((name) => emptied(g[name])));
}

type Label = readonly [fr: string, en: string];

/** The fields of a diagnosis, under `diagnoses[]` (consultation) and `stay.diagnoses[]` (stay). */
const DIAGNOSIS_LABELS = {
  code: ['Code CIM-10', 'ICD-10 code'],
  label: ['Libellé du diagnostic', 'Diagnosis'],
} as const satisfies Record<string, Label>;

const under = (prefix: string, labels: Record<string, Label>) =>
  Object.fromEntries(Object.entries(labels).map(([k, v]) => [`${prefix}.${k}`, v]));

/**
 * The label of every variable, French then English, keyed by its path without `[]` (`prescription.lines.dose` for
 * `prescription.lines[].dose`). Every path of every kind has one (a test walks them all): the template editor shows
 * it under the path.
 */
const LABELS: Readonly<Record<string, Label>> = {
  hospital: ['Hôpital', 'Hospital'],
  'hospital.name': ['Nom de l’hôpital', 'Hospital name'],
  'hospital.code': ['Code de l’hôpital', 'Hospital code'],
  'hospital.address': ['Adresse de l’hôpital', 'Hospital address'],
  'hospital.phones': ['Téléphones de l’hôpital', 'Hospital phone numbers'],
  'hospital.header': ['En-tête d’impression de l’hôpital', 'Hospital print header'],
  'hospital.footer': ['Pied de page d’impression de l’hôpital', 'Hospital print footer'],

  author: ['Auteur du document', 'Author of the document'],
  'author.full_name': ['Nom complet de l’auteur', 'Author’s full name'],
  'author.title': ['Titre de l’auteur (Dr., …)', 'Author’s title (Dr., …)'],
  'author.display_name': ['Titre et nom de l’auteur', 'Author’s title and name'],
  'author.role': ['Fonction de l’auteur', 'Author’s role'],
  'author.department': ['Service de l’auteur', 'Author’s department'],

  patient: ['Patient', 'Patient'],
  'patient.full_name': ['Nom complet du patient', 'Patient’s full name'],
  'patient.first_name': ['Prénom', 'First name'],
  'patient.last_name': ['Nom de famille', 'Last name'],
  'patient.record_number': ['Numéro de dossier', 'Medical record number'],
  'patient.sex': ['Sexe (code F ou M)', 'Sex (code F or M)'],
  'patient.sex_label': ['Sexe (en toutes lettres)', 'Sex (in words)'],
  'patient.birth_date': ['Date de naissance', 'Date of birth'],
  'patient.age': ['Âge (en années)', 'Age (in years)'],
  'patient.address': ['Adresse du patient', 'Patient’s address'],
  'patient.phone': ['Téléphone du patient', 'Patient’s phone number'],
  'patient.allergies': ['Allergies connues', 'Known allergies'],

  date: ['Date du jour (fuseau de l’hôpital)', 'Today (hospital time zone)'],
  'date.today': ['Date du jour', 'Today’s date'],
  'date.today_long': ['Date du jour en toutes lettres', 'Today’s date in words'],
  'date.time': ['Heure actuelle', 'Current time'],

  visit: ['Visite', 'Visit'],
  'visit.date': ['Date de la visite', 'Visit date'],
  'visit.department': ['Service de la visite', 'Visit department'],
  'visit.reason': ['Motif de la visite', 'Reason for the visit'],

  consultation: ['Consultation', 'Consultation'],
  'consultation.date': ['Date de la consultation', 'Consultation date'],
  'consultation.reason': ['Motif de consultation', 'Reason for consultation'],
  'consultation.history': ['Antécédents', 'Medical history'],
  'consultation.current_treatment': ['Traitement en cours', 'Current treatment'],
  'consultation.examination': ['Examen clinique', 'Clinical examination'],
  'consultation.vitals': ['Constantes (signes vitaux)', 'Vital signs'],
  'consultation.conclusion': ['Conclusion clinique', 'Clinical conclusion'],
  'consultation.plan': ['Conduite à tenir', 'Management plan'],
  'consultation.outcome': ['Issue de la consultation', 'Consultation outcome'],
  'consultation.follow_up_date': ['Date du rendez-vous de contrôle', 'Follow-up appointment date'],

  diagnoses: ['Diagnostics', 'Diagnoses'],
  ...under('diagnoses', DIAGNOSIS_LABELS),
  'diagnoses.primary': ['Diagnostic principal (oui/non)', 'Primary diagnosis (yes/no)'],
  'diagnoses.certainty': ['Certitude (confirmé ou suspecté)', 'Certainty (confirmed or suspected)'],

  stay: ['Séjour', 'Stay'],
  'stay.admitted_on': ['Date d’admission', 'Admission date'],
  'stay.discharged_on': ['Date de sortie', 'Discharge date'],
  'stay.length_days': ['Durée du séjour (jours)', 'Length of stay (days)'],
  'stay.department': ['Service d’hospitalisation', 'Ward (department)'],
  'stay.reason': ['Motif d’hospitalisation', 'Reason for admission'],
  'stay.discharge_mode': ['Mode de sortie', 'Discharge mode'],
  'stay.summary': ['Résumé du séjour', 'Summary of the stay'],
  'stay.treatments': ['Traitement de sortie', 'Discharge treatment'],
  'stay.follow_up_date': ['Date du contrôle après la sortie', 'Follow-up date after discharge'],
  'stay.diagnoses': ['Diagnostics du séjour', 'Diagnoses of the stay'],
  ...under('stay.diagnoses', DIAGNOSIS_LABELS),
  'stay.given': ['Traitement reçu pendant le séjour (MAR)', 'Treatment given during the stay (MAR)'],
  'stay.given.medication': ['Médicament administré', 'Medicine given'],
  'stay.given.doses': ['Nombre de doses données', 'Doses given'],
  'stay.given.from': ['Première dose le', 'First dose on'],
  'stay.given.to': ['Dernière dose le', 'Last dose on'],
  'stay.results': ['Résultats d’examens validés', 'Validated exam results'],
  'stay.results.exam': ['Examen', 'Exam'],
  'stay.results.date': ['Date de validation', 'Validation date'],
  'stay.results.abnormal': ['Résultat anormal', 'Abnormal result'],
  'stay.results.report': ['Compte rendu de l’examen', 'Exam report'],
  'stay.follow_up': ['Rendez-vous de suivi réservé', 'Follow-up appointment booked'],

  prescription: ['Ordonnance', 'Prescription'],
  'prescription.number': ['Numéro de l’ordonnance', 'Prescription number'],
  'prescription.date': ['Date de l’ordonnance', 'Prescription date'],
  'prescription.weight_kg': ['Poids du patient (kg)', 'Patient’s weight (kg)'],
  'prescription.notes': ['Remarques de l’ordonnance', 'Prescription notes'],
  'prescription.lines': ['Lignes de l’ordonnance', 'Prescription lines'],
  'prescription.lines.medication': ['Médicament', 'Medication'],
  'prescription.lines.strength': ['Dosage', 'Strength'],
  'prescription.lines.form': ['Forme galénique', 'Dosage form'],
  'prescription.lines.dose': ['Posologie (dose par prise)', 'Dose (per intake)'],
  'prescription.lines.route': ['Voie d’administration', 'Route of administration'],
  'prescription.lines.frequency': ['Fréquence des prises', 'Frequency'],
  'prescription.lines.duration': ['Durée du traitement', 'Treatment duration'],
  'prescription.lines.quantity': ['Quantité à délivrer', 'Quantity to dispense'],
  'prescription.lines.instructions': ['Consignes de prise', 'Instructions'],

  exam: ['Examen', 'Exam'],
  'exam.number': ['Numéro de l’examen', 'Exam number'],
  'exam.name': ['Nom de l’examen', 'Exam name'],
  'exam.category': ['Discipline (hématologie, biochimie…)', 'Discipline (haematology, biochemistry…)'],
  'exam.specimen': ['Nature du prélèvement', 'Specimen type'],
  'exam.requested_at': ['Date et heure de la demande', 'Date and time requested'],
  'exam.validated_at': ['Date et heure de validation', 'Date and time validated'],
  'exam.requested_by': ['Prescripteur', 'Requested by'],
  'exam.validated_by': ['Validé par', 'Validated by'],
  'exam.clinical_info': ['Renseignements cliniques', 'Clinical information'],
  'exam.report': ['Compte rendu (interprétation)', 'Report (interpretation)'],
  'exam.abnormal': ['Examen anormal (oui/non)', 'Abnormal exam (yes/no)'],
  'exam.results': ['Résultats (avec indicateurs)', 'Results (with flags)'],
  'exam.results.name': ['Paramètre analysé', 'Analyte'],
  'exam.results.value': ['Valeur', 'Value'],
  'exam.results.unit': ['Unité', 'Unit'],
  'exam.results.reference': ['Valeurs de référence', 'Reference range'],
  'exam.results.flag': ['Indicateur (code : low, high, abnormal)', 'Flag (code: low, high, abnormal)'],
  'exam.results.flag_label': ['Indicateur (en toutes lettres : Bas, Élevé…)', 'Flag (in words: Low, High…)'],
  'exam.results.abnormal': ['Valeur anormale (oui/non)', 'Abnormal value (yes/no)'],

  invoice: ['Facture', 'Invoice'],
  'invoice.number': ['Numéro de facture', 'Invoice number'],
  'invoice.date': ['Date de la facture', 'Invoice date'],
  'invoice.currency': ['Devise', 'Currency'],
  // Billing exists but prints its own invoices and receipts (decision 0030): no document source fills this group
  // (KIND_SOURCES has none for `invoice` and `receipt`), so its lines are the demo row of the preview only.
  'invoice.lines': [
    'Lignes de facture (exemple d’aperçu : la facturation ne remplit pas encore ce modèle)',
    'Invoice lines (preview example: billing does not fill this model yet)',
  ],
  'invoice.lines.label': ['Libellé de la prestation', 'Item'],
  'invoice.lines.quantity': ['Quantité', 'Quantity'],
  'invoice.lines.unit_price': ['Prix unitaire', 'Unit price'],
  'invoice.lines.amount': ['Montant', 'Amount'],
  'invoice.total': ['Montant total', 'Total amount'],
  'invoice.paid': ['Montant payé', 'Amount paid'],
  'invoice.balance': ['Reste à payer', 'Balance due'],
};

export interface VariableInfo {
  path: string;
  type: 'text' | 'number' | 'date' | 'boolean' | 'list' | 'object';
  label_fr: string;
  label_en: string;
  example: string | null;
}

/** The catalogue of a kind's variables, walked from its demo data. */
export function variableCatalogue(kind: DocumentKind): VariableInfo[] {
  const out: VariableInfo[] = [];
  const walk = (value: unknown, path: string) => {
    const label = LABELS[path.replaceAll('[]', '')] ?? [path, path];
    if (Array.isArray(value)) {
      out.push({ path, type: 'list', label_fr: label[0], label_en: label[1], example: null });
      if (value[0] && typeof value[0] === 'object')
        for (const [k, v] of Object.entries(value[0])) walk(v, `${path}[].${k}`);
      return;
    }
    if (value && typeof value === 'object') {
      if (path) out.push({ path, type: 'object', label_fr: label[0], label_en: label[1], example: null });
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
      return;
    }
    const type =
      typeof value === 'number'
        ? 'number'
        : typeof value === 'boolean'
          ? 'boolean'
          : /^\d\d\/\d\d\/\d{4}/.test(String(value))
            ? 'date'
            : 'text';
    out.push({ path, type, label_fr: label[0], label_en: label[1], example: String(value) });
  };
  walk(demoVariables(kind, 'fr'), '');
  return out;
}
