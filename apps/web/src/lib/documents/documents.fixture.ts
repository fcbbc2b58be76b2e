/** Answers of the documents API for the tests (shapes of @greensen/shared/contracts/documents). */
import type {
  TDocument,
  TDocumentDraft,
  TDocumentTemplate,
  TDocumentVerification,
  TPatientDocument,
} from '@greensen/shared/contracts/documents';
import { PATIENT } from '../clinical/components/pharmacy.fixture';

export { PATIENT };
export const DOCTOR = { id: '0190f0f0-1111-7222-8333-444455550001', full_name: 'Awa Diop' };
export const SHIPPED_ID = '0190f0f0-cccc-7222-8333-444455550001';
export const OWN_ID = '0190f0f0-cccc-7222-8333-444455550002';
export const DOCUMENT_ID = '0190f0f0-dddd-7222-8333-444455550001';
export const UPLOAD_ID = '0190f0f0-eeee-7222-8333-444455550009';
export const TOKEN = 'Zb3kP9xQ2mLr7TtY4hVw1cNd';

export function template(over: Partial<TDocumentTemplate> = {}): TDocumentTemplate {
  return {
    id: SHIPPED_ID,
    kind: 'medical_certificate',
    language: 'fr',
    paper: 'A4',
    name: 'Certificat médical',
    description: null,
    body: '# Certificat médical\n\nJe soussigné(e) {{ author.full_name }}, certifie avoir examiné {{ patient.full_name }}.',
    shipped: true,
    active: true,
    archived: false,
    based_on: null,
    editable_on_issue: true,
    version: 1,
    created_at: '2026-11-01T08:00:00Z',
    updated_at: '2026-11-01T08:00:00Z',
    updated_by: null,
    can: { edit: false, activate: false, archive: false },
    ...over,
  };
}

export function listItem(over: Partial<TDocumentTemplate> = {}) {
  const { body: _body, ...item } = template(over);
  return item;
}

export const SOURCE = { type: 'consultation' as const, id: '0190f0f0-8888-7222-8333-444455550001' };

export function draft(over: Partial<TDocumentDraft> = {}): TDocumentDraft {
  return {
    kind: 'medical_certificate',
    language: 'fr',
    paper: 'A4',
    template: { id: SHIPPED_ID, name: 'Certificat médical', shipped: true },
    patient: PATIENT,
    source: SOURCE,
    text: '# Certificat médical\n\nJe soussignée Awa Diop, certifie avoir examiné Bénédicte Ngalula.',
    html: '<h1>Certificat médical</h1><p>Je soussignée Awa Diop, certifie avoir examiné Bénédicte Ngalula.</p>',
    editable: true,
    ...over,
  };
}

export function issued(over: Partial<TDocument> = {}): TDocument {
  return {
    id: DOCUMENT_ID,
    number: 'CM-HGG-2026-000042',
    kind: 'medical_certificate',
    language: 'fr',
    paper: 'A4',
    status: 'valid',
    patient: PATIENT,
    author: DOCTOR,
    template: { id: SHIPPED_ID, name: 'Certificat médical', shipped: true },
    source: SOURCE,
    text: draft().text,
    html: draft().html,
    issued_at: '2026-11-25T09:30:00Z',
    sha256: 'ab'.repeat(32),
    size_bytes: 24_512,
    verification_code: 'K7P2-9QXD',
    verification_path: `/verify/${TOKEN}`,
    cancelled_at: null,
    cancelled_by: null,
    cancel_reason: null,
    can: { cancel: true },
    ...over,
  };
}

export function issuedItem(over: Partial<TDocument> = {}) {
  const { text: _text, html: _html, ...item } = issued(over);
  return item;
}

export function upload(over: Partial<TPatientDocument> = {}): TPatientDocument {
  return {
    id: UPLOAD_ID,
    patient: PATIENT,
    category: 'previous_results',
    document_date: '2026-10-02',
    description: 'Bilan sanguin de septembre',
    file_name: 'bilan.pdf',
    content_type: 'application/pdf',
    size_bytes: 120_000,
    sha256: 'cd'.repeat(32),
    viewable: true,
    uploaded_by: DOCTOR,
    uploaded_at: '2026-11-20T10:00:00Z',
    can: { delete: true },
    ...over,
  };
}

export function verification(over: Partial<TDocumentVerification> = {}): TDocumentVerification {
  return {
    kind: 'medical_certificate',
    number: 'CM-HGG-2026-000042',
    issued_at: '2026-11-25T09:30:00Z',
    issued_on: '2026-11-25',
    hospital: { name: 'Hôpital Général de Greensen', code: 'HGG' },
    issuer: 'Dr. Awa Diop',
    patient: { initials: 'J. K.', birth_year: 1971 },
    status: 'valid',
    cancelled_at: null,
    verification_code: 'K7P2-9QXD',
    ...over,
  };
}

export const pageOf = <T>(results: T[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });
