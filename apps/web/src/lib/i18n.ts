/** i18next with the French (default) and English resources bundled statically. */
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@greensen/shared/domain/constants';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAdmissions from '../locales/en/admissions.json';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enDashboard from '../locales/en/dashboard.json';
import enDoctors from '../locales/en/doctors.json';
import enErrors from '../locales/en/errors.json';
import enPatients from '../locales/en/patients.json';
import enRoutes from '../locales/en/routes.json';
import enSettings from '../locales/en/settings.json';
import enShell from '../locales/en/shell.json';
import enTriage from '../locales/en/triage.json';
import frAdmissions from '../locales/fr/admissions.json';
import frAuth from '../locales/fr/auth.json';
import frCommon from '../locales/fr/common.json';
import frDashboard from '../locales/fr/dashboard.json';
import frDoctors from '../locales/fr/doctors.json';
import frErrors from '../locales/fr/errors.json';
import frPatients from '../locales/fr/patients.json';
import frRoutes from '../locales/fr/routes.json';
import frSettings from '../locales/fr/settings.json';
import frShell from '../locales/fr/shell.json';
import frTriage from '../locales/fr/triage.json';

export const resources = {
  fr: {
    common: frCommon,
    auth: frAuth,
    dashboard: frDashboard,
    errors: frErrors,
    routes: frRoutes,
    settings: frSettings,
    shell: frShell,
    doctors: frDoctors,
    triage: frTriage,
    admissions: frAdmissions,
    patients: frPatients,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    dashboard: enDashboard,
    errors: enErrors,
    routes: enRoutes,
    settings: enSettings,
    shell: enShell,
    doctors: enDoctors,
    triage: enTriage,
    admissions: enAdmissions,
    patients: enPatients,
  },
} as const;

export const NAMESPACES = Object.keys(resources.fr) as (keyof typeof resources.fr)[];

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['fr', 'en'],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** The UI language as a supported language code. */
export function uiLanguage(): Language {
  const lang = i18n.language;
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/** A translation outside React, in the current UI language. */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options) as string;
}
