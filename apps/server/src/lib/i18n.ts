import { formatMoney } from '@greensen/shared/domain/money';
import type { FastifyRequest } from 'fastify';

export type Lang = 'fr' | 'en';

/** Server-side messages, French first. Keys are stable; texts follow the request's Accept-Language. */
const messages = {
  'error.internal': {
    fr: 'Une erreur interne est survenue. Veuillez réessayer plus tard.',
    en: 'An internal error occurred. Please try again later.',
  },
  'error.stored_file_corrupt': {
    fr: "Ce fichier enregistré a échoué à son contrôle d'intégrité : il n'est pas servi. Prévenez l'administrateur.",
    en: 'This stored file failed its integrity check: it is not served. Tell the administrator.',
  },
  'error.not_found': { fr: 'Introuvable.', en: 'Not found.' },
  'error.route_not_found': { fr: "Cette adresse d'API n'existe pas.", en: 'This API path does not exist.' },
  'error.method_not_allowed': { fr: 'Méthode non autorisée.', en: 'Method not allowed.' },
  'error.unsupported_media_type': {
    fr: 'Type de contenu non pris en charge : envoyez du JSON.',
    en: 'Unsupported content type: send JSON.',
  },
  'error.invalid_json': {
    fr: 'Le corps de la requête n’est pas un JSON valide.',
    en: 'The request body is not valid JSON.',
  },
  'error.body_too_large': {
    fr: 'Le corps de la requête est trop volumineux.',
    en: 'The request body is too large.',
  },
  'error.too_many_requests': {
    fr: 'Trop de tentatives. Veuillez réessayer plus tard.',
    en: 'Too many attempts. Please try again later.',
  },
  'error.database_unavailable': {
    fr: 'Le service est momentanément indisponible. Veuillez réessayer dans un instant.',
    en: 'The service is temporarily unavailable. Please try again in a moment.',
  },
  'error.maintenance': {
    fr: "L'application est en maintenance. Veuillez réessayer plus tard.",
    en: 'The application is under maintenance. Please try again later.',
  },
  'auth.not_authenticated': {
    fr: "Les informations d'authentification n'ont pas été fournies.",
    en: 'Authentication credentials were not provided.',
  },
  'auth.token_invalid': {
    fr: "Le jeton d'accès est invalide ou a expiré.",
    en: 'The access token is invalid or has expired.',
  },
  'auth.hospital_required': {
    fr: "L'en-tête Hospital-ID est requis pour cette requête.",
    en: 'The Hospital-ID header is required for this request.',
  },
  'auth.hospital_forbidden': {
    fr: "Vous n'êtes pas membre de cet hôpital.",
    en: 'You are not a member of this hospital.',
  },
  'auth.forbidden': {
    fr: "Vous n'avez pas la permission d'effectuer cette action.",
    en: 'You do not have permission to perform this action.',
  },
  'validation.invalid': { fr: 'Valeur invalide.', en: 'Invalid value.' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof messages;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(messages, key);
}

/** Registers more messages (each module keeps its own texts beside its code). */
export function defineMessages<K extends string>(more: Record<K, Record<Lang, string>>): (key: K) => K {
  Object.assign(messages, more);
  return (key) => key;
}

/**
 * A value put into a message: text as is; a number written as the language writes it (`3 000`, `38,7` in French;
 * `3,000`, `38.7` in English); an amount of money in minor units with its currency (`3 000 F CFA`).
 */
export type MessageParam = string | number | { money: number; currency: string };

const numberFormats: Record<Lang, Intl.NumberFormat> = {
  fr: new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 20 }),
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 20 }),
};

export function formatParam(lang: Lang, value: MessageParam): string {
  if (typeof value === 'number')
    return Number.isFinite(value) ? numberFormats[lang].format(value) : String(value);
  if (typeof value === 'string') return value;
  return formatMoney(value.money, value.currency, lang);
}

export function translate(lang: Lang, key: string, params: Record<string, MessageParam> = {}): string {
  const entry = (messages as Record<string, Record<Lang, string>>)[key];
  const text = entry ? entry[lang] : key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => {
    const value = params[name];
    return value === undefined ? m : formatParam(lang, value);
  });
}

/** The language of a request: the first of fr/en in Accept-Language by quality, else French. */
/** Accept-Language values seen, with their language: browsers send a handful of distinct ones. */
const languages = new Map<string, Lang>();

export function languageOf(header: string | undefined): Lang {
  if (!header) return 'fr';
  let lang = languages.get(header);
  if (lang === undefined) {
    lang = rankedLanguage(header);
    if (languages.size >= 256) languages.clear();
    languages.set(header, lang);
  }
  return lang;
}

function rankedLanguage(header: string): Lang {
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...attrs] = part.trim().split(';');
      const q = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((e) => e.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('fr')) return 'fr';
    if (tag.startsWith('en')) return 'en';
  }
  return 'fr';
}

export function requestLang(request: FastifyRequest): Lang {
  return languageOf(request.headers['accept-language']);
}
