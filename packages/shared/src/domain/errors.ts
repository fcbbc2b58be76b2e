/**
 * Resource types and texts of the not-found error page /error-404 (specification §2 and §8).
 */
import type { Language, LocalizedText } from './constants.js';

export const RESOURCE_TYPES = [
  'patient',
  'admission',
  'consultation',
  'exam',
  'hospitalization',
  'triage',
  'medical-act',
  'transfer',
] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The list route the error page's back button goes to, per type. */
export const RESOURCE_LIST_ROUTES: Readonly<Record<ResourceType, string>> = {
  patient: '/patients',
  admission: '/admissions',
  consultation: '/consultations',
  exam: '/exams',
  hospitalization: '/hospitalizations',
  triage: '/triage',
  'medical-act': '/medical-acts',
  transfer: '/transfers',
};

/** API path segment (`/api/<segment>/<id>/`) → resource type. */
export const RESOURCE_PATH_TO_TYPE: Readonly<Record<string, ResourceType>> = {
  patients: 'patient',
  admissions: 'admission',
  consultations: 'consultation',
  exams: 'exam',
  hospitalizations: 'hospitalization',
  triage: 'triage',
  'medical-acts': 'medical-act',
  transfers: 'transfer',
};

/** Data the error page receives for a missing resource. */
export interface NotFoundErrorData {
  readonly resourceType: ResourceType;
  readonly resourceId: string;
  /** The API path segment of the resource's list, e.g. 'patients' or 'medical-acts'. */
  readonly resourceListType: string;
}

export function isResourceType(value: unknown): value is ResourceType {
  return typeof value === 'string' && (RESOURCE_TYPES as readonly string[]).includes(value);
}

/**
 * The missing resource behind a 404 on a GET of `/api/<resources>/<id>/` (also accepted without
 * the leading '/api/', with an origin, a query or no trailing slash). Only a detail path of a known
 * resource qualifies: a list path (no id) or a deeper path (a sub-resource or an action, whose 404
 * may concern something else) gives null.
 */
export function notFoundFromApiPath(path: string): NotFoundErrorData | null {
  let rest = path.trim();
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (origin) rest = rest.slice(origin[0].length);
  rest = rest.replace(/[?#].*$/s, '');
  const segments = rest.split('/').filter((segment) => segment.length > 0);
  if (segments[0] === 'api') segments.shift();
  if (segments.length !== 2) return null;
  const [listSegment, id] = segments as [string, string];
  if (!Object.hasOwn(RESOURCE_PATH_TO_TYPE, listSegment)) return null;
  const resourceType = RESOURCE_PATH_TO_TYPE[listSegment];
  if (!resourceType) return null;
  let resourceId = id;
  try {
    resourceId = decodeURIComponent(id);
  } catch {
    // keep the raw segment when it is not valid percent-encoding
  }
  return { resourceType, resourceId, resourceListType: listSegment };
}

/** Name of each resource type. */
export const RESOURCE_LABELS: Readonly<Record<ResourceType, LocalizedText>> = {
  patient: { fr: 'Patient', en: 'Patient' },
  admission: { fr: 'Admission', en: 'Admission' },
  consultation: { fr: 'Consultation', en: 'Consultation' },
  exam: { fr: 'Examen', en: 'Exam' },
  hospitalization: { fr: 'Hospitalisation', en: 'Hospitalization' },
  triage: { fr: 'Triage', en: 'Triage' },
  'medical-act': { fr: 'Acte médical', en: 'Medical act' },
  transfer: { fr: 'Transfert', en: 'Transfer' },
};

/** Title of the error page for a missing resource of each type. */
export const NOT_FOUND_TITLES: Readonly<Record<ResourceType, LocalizedText>> = {
  patient: { fr: 'Patient introuvable', en: 'Patient not found' },
  admission: { fr: 'Admission introuvable', en: 'Admission not found' },
  consultation: { fr: 'Consultation introuvable', en: 'Consultation not found' },
  exam: { fr: 'Examen introuvable', en: 'Exam not found' },
  hospitalization: { fr: 'Hospitalisation introuvable', en: 'Hospitalization not found' },
  triage: { fr: 'Triage introuvable', en: 'Triage not found' },
  'medical-act': { fr: 'Acte médical introuvable', en: 'Medical act not found' },
  transfer: { fr: 'Transfert introuvable', en: 'Transfer not found' },
};

export const PAGE_NOT_FOUND_TITLE: LocalizedText = { fr: 'Page introuvable', en: 'Page not found' };

export const PAGE_NOT_FOUND_DESCRIPTION: LocalizedText = {
  fr: "Désolé, la page que vous recherchez n'existe pas ou a été déplacée.",
  en: "Sorry, the page you are looking for doesn't exist or has been moved.",
};

/** Description of a missing resource; `{resource}` is the lower-cased resource label. */
export const RESOURCE_NOT_FOUND_DESCRIPTION: LocalizedText = {
  fr: "L'élément « {resource} » que vous recherchez n'existe pas ou a été déplacé.",
  en: 'The {resource} you are looking for does not exist or has been moved.',
};

export const GENERIC_ERROR_TITLE: LocalizedText = {
  fr: 'Une erreur est survenue',
  en: 'An error occurred',
};

/** 'The patient you are looking for…' / "L'élément « patient » que vous recherchez…". */
export function resourceNotFoundDescription(type: ResourceType, lang: Language): string {
  const resource = RESOURCE_LABELS[type][lang].toLowerCase();
  return RESOURCE_NOT_FOUND_DESCRIPTION[lang].replace('{resource}', resource);
}

/**
 * Title and description of the error page for a 404: type-specific for a known resource type,
 * the generic page-not-found texts otherwise.
 */
export function notFoundTexts(
  type: string | null | undefined,
  lang: Language,
): { title: string; description: string } {
  if (isResourceType(type)) {
    return { title: NOT_FOUND_TITLES[type][lang], description: resourceNotFoundDescription(type, lang) };
  }
  return { title: PAGE_NOT_FOUND_TITLE[lang], description: PAGE_NOT_FOUND_DESCRIPTION[lang] };
}
