import { describe, expect, it } from 'vitest';
import {
  GENERIC_ERROR_TITLE,
  NOT_FOUND_TITLES,
  notFoundFromApiPath,
  notFoundTexts,
  PAGE_NOT_FOUND_DESCRIPTION,
  PAGE_NOT_FOUND_TITLE,
  RESOURCE_LABELS,
  RESOURCE_LIST_ROUTES,
  RESOURCE_PATH_TO_TYPE,
  RESOURCE_TYPES,
  resourceNotFoundDescription,
} from './errors.js';

describe('resource types', () => {
  it('lists the 8 types', () => {
    expect(RESOURCE_TYPES).toEqual([
      'patient',
      'admission',
      'consultation',
      'exam',
      'hospitalization',
      'triage',
      'medical-act',
      'transfer',
    ]);
  });

  it('maps each type to its list route', () => {
    expect(RESOURCE_LIST_ROUTES).toEqual({
      patient: '/patients',
      admission: '/admissions',
      consultation: '/consultations',
      exam: '/exams',
      hospitalization: '/hospitalizations',
      triage: '/triage',
      'medical-act': '/medical-acts',
      transfer: '/transfers',
    });
  });

  it('maps each API path segment to its type', () => {
    expect(RESOURCE_PATH_TO_TYPE).toEqual({
      patients: 'patient',
      admissions: 'admission',
      consultations: 'consultation',
      exams: 'exam',
      hospitalizations: 'hospitalization',
      triage: 'triage',
      'medical-acts': 'medical-act',
      transfers: 'transfer',
    });
  });
});

describe('notFoundFromApiPath', () => {
  it.each([
    ['/api/patients/123/', 'patient', '123', 'patients'],
    ['patients/123/', 'patient', '123', 'patients'],
    [
      '/api/admissions/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      'admission',
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      'admissions',
    ],
    ['/api/consultations/7/?expand=patient', 'consultation', '7', 'consultations'],
    ['/api/exams/8/', 'exam', '8', 'exams'],
    ['/api/hospitalizations/9/', 'hospitalization', '9', 'hospitalizations'],
    ['/api/triage/10/', 'triage', '10', 'triage'],
    ['/api/medical-acts/11/', 'medical-act', '11', 'medical-acts'],
    ['/api/transfers/12/', 'transfer', '12', 'transfers'],
    ['https://greensen.example/api/patients/13/', 'patient', '13', 'patients'],
  ])('%s → %s %s', (path, resourceType, resourceId, resourceListType) => {
    expect(notFoundFromApiPath(path)).toEqual({ resourceType, resourceId, resourceListType });
  });

  it.each([
    '/api/patients/',
    'patients',
    '/api/',
    '',
    '/api/doctors/5/',
    '/api/notifications/5/',
    '/api/patients/5/admissions/',
    '/api/admissions/5/start-consultation/',
    '/api/toString/5/',
  ])('%s → null', (path) => {
    expect(notFoundFromApiPath(path)).toBeNull();
  });
});

describe('error page texts', () => {
  it('has French and English labels per type', () => {
    expect(RESOURCE_LABELS.patient).toEqual({ fr: 'Patient', en: 'Patient' });
    expect(RESOURCE_LABELS.exam).toEqual({ fr: 'Examen', en: 'Exam' });
    expect(RESOURCE_LABELS.hospitalization).toEqual({ fr: 'Hospitalisation', en: 'Hospitalization' });
    expect(RESOURCE_LABELS['medical-act']).toEqual({ fr: 'Acte médical', en: 'Medical act' });
    expect(RESOURCE_LABELS.transfer).toEqual({ fr: 'Transfert', en: 'Transfer' });
  });

  it('has a not-found title per type', () => {
    expect(NOT_FOUND_TITLES).toEqual({
      patient: { fr: 'Patient introuvable', en: 'Patient not found' },
      admission: { fr: 'Admission introuvable', en: 'Admission not found' },
      consultation: { fr: 'Consultation introuvable', en: 'Consultation not found' },
      exam: { fr: 'Examen introuvable', en: 'Exam not found' },
      hospitalization: { fr: 'Hospitalisation introuvable', en: 'Hospitalization not found' },
      triage: { fr: 'Triage introuvable', en: 'Triage not found' },
      'medical-act': { fr: 'Acte médical introuvable', en: 'Medical act not found' },
      transfer: { fr: 'Transfert introuvable', en: 'Transfer not found' },
    });
  });

  it('has the generic texts', () => {
    expect(PAGE_NOT_FOUND_TITLE).toEqual({ fr: 'Page introuvable', en: 'Page not found' });
    expect(PAGE_NOT_FOUND_DESCRIPTION).toEqual({
      fr: "Désolé, la page que vous recherchez n'existe pas ou a été déplacée.",
      en: "Sorry, the page you are looking for doesn't exist or has been moved.",
    });
    expect(GENERIC_ERROR_TITLE).toEqual({ fr: 'Une erreur est survenue', en: 'An error occurred' });
  });

  it('describes a missing resource', () => {
    expect(resourceNotFoundDescription('patient', 'en')).toBe(
      'The patient you are looking for does not exist or has been moved.',
    );
    expect(resourceNotFoundDescription('medical-act', 'en')).toBe(
      'The medical act you are looking for does not exist or has been moved.',
    );
    expect(resourceNotFoundDescription('exam', 'fr')).toBe(
      "L'élément « examen » que vous recherchez n'existe pas ou a été déplacé.",
    );
  });

  it('chooses the type-specific or the generic not-found texts', () => {
    expect(notFoundTexts('transfer', 'fr')).toEqual({
      title: 'Transfert introuvable',
      description: "L'élément « transfert » que vous recherchez n'existe pas ou a été déplacé.",
    });
    expect(notFoundTexts('invoice', 'en')).toEqual({
      title: 'Page not found',
      description: "Sorry, the page you are looking for doesn't exist or has been moved.",
    });
    expect(notFoundTexts(null, 'fr').title).toBe('Page introuvable');
  });
});
