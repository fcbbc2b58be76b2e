import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LANGUAGES,
  type DocumentKind,
  type DocumentLanguage,
  type PaperSize,
} from '@greensen/shared/contracts/documents';

/**
 * Greensen's own document models: one of every kind in French and English (`data/<kind>.<language>.liquid`), the
 * same for every hospital and read-only (a hospital copies one to adapt it). They are not rows: their ids are
 * fixed (kind and language in the last digits), so a document keeps naming the model it was made with.
 */

const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/modules/documents/data');

export interface ShippedTemplate {
  id: string;
  kind: DocumentKind;
  language: DocumentLanguage;
  paper: PaperSize;
  name: string;
  description: string;
  body: string;
}

export const KIND_NAMES: Readonly<Record<DocumentKind, Record<DocumentLanguage, string>>> = {
  consultation_report: { fr: 'Compte rendu de consultation', en: 'Consultation report' },
  medical_certificate: { fr: 'Certificat médical', en: 'Medical certificate' },
  sick_leave_certificate: { fr: "Certificat d'arrêt de travail", en: 'Sick leave certificate' },
  referral_letter: { fr: "Lettre d'orientation", en: 'Referral letter' },
  prescription: { fr: 'Ordonnance', en: 'Prescription' },
  discharge_summary: { fr: "Compte rendu d'hospitalisation", en: 'Discharge summary' },
  exam_results_report: { fr: "Résultats d'examen", en: 'Exam results' },
  invoice: { fr: 'Facture', en: 'Invoice' },
  receipt: { fr: 'Reçu', en: 'Receipt' },
  free_letter: { fr: 'Courrier libre', en: 'Free letter' },
};

/** The number printed before a document's number, per kind (`CM-HGG-2026-000042`). */
export const KIND_PREFIXES: Readonly<Record<DocumentKind, string>> = {
  consultation_report: 'CR',
  medical_certificate: 'CM',
  sick_leave_certificate: 'AT',
  referral_letter: 'LO',
  prescription: 'OR',
  discharge_summary: 'CH',
  exam_results_report: 'RE',
  invoice: 'FA',
  receipt: 'RC',
  free_letter: 'CL',
};

export function shippedId(kind: DocumentKind, language: DocumentLanguage): string {
  const k = String(DOCUMENT_KINDS.indexOf(kind) + 1).padStart(2, '0');
  const l = String(DOCUMENT_LANGUAGES.indexOf(language) + 1).padStart(2, '0');
  return `00000019-0000-4000-8000-0000000${k}${l}0`.slice(0, 36);
}

export const SHIPPED_TEMPLATES: readonly ShippedTemplate[] = DOCUMENT_KINDS.flatMap((kind) =>
  DOCUMENT_LANGUAGES.map((language) => ({
    id: shippedId(kind, language),
    kind,
    language,
    paper: kind === 'prescription' ? ('A5' as const) : ('A4' as const),
    name: `${KIND_NAMES[kind][language]} (Greensen)`,
    description:
      language === 'fr'
        ? 'Modèle fourni par Greensen, à copier pour l’adapter.'
        : 'Model shipped by Greensen: copy it to adapt it.',
    body: readFileSync(resolve(DATA_DIR, `${kind}.${language}.liquid`), 'utf8'),
  })),
);

const byId = new Map(SHIPPED_TEMPLATES.map((t) => [t.id, t]));
export const shippedById = (id: string) => byId.get(id) ?? null;
export const shippedFor = (kind: DocumentKind, language: DocumentLanguage) =>
  byId.get(shippedId(kind, language))!;
