/** Dates, times and durations as the UI shows them (in the browser's time zone, in the UI language). */
import { uiLanguage } from './i18n';

/**
 * Every number shown to a clinician — a vital sign, a weight, a dose, a result, a rate — as the language writes it
 * (issue 37): `38,7`, `62,5`, `3 000` in French; `38.7`, `62.5`, `3,000` in English; up to 3 decimals. Fields write
 * their text with the shared `formatClinicalNumber` instead (no grouping, so that it reads back).
 */
export function formatNumber(value: number, lang: string = uiLanguage()): string {
  return numberFormat(lang === 'en' ? 'en-GB' : 'fr-FR', { maximumFractionDigits: 3 }).format(value);
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

/** The formatter under `kind`, `locale` and `options`, made by `make` the first time only. */
function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key) as T | undefined;
  if (!made) {
    made = make();
    formatters.set(key, made);
  }
  return made;
}

/**
 * The formatter of `locale` with `options`, made once (issue 38): `Date.toLocaleString(locale, options)` and its
 * kin build a new one at every call — about a tenth of a millisecond each, paid per cell of a list as a page first
 * renders. Its `format` gives the same text, as long as `options` names the fields shown (the `toLocale…String`
 * forms add defaults only when it names none).
 */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return formatter('date', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

/** `Number.toLocaleString(locale, options)`'s formatter, made once (as `dateTimeFormat`). */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return formatter('number', locale, options, () => new Intl.NumberFormat(locale, options));
}

function locale(): string {
  return uiLanguage() === 'fr' ? 'fr-FR' : 'en-GB';
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T12:00:00` : value);
  // The date alone (year, month and day in figures), as `toLocaleDateString(locale)`.
  return Number.isNaN(date.getTime()) ? value : dateTimeFormat(locale()).format(date);
}

/** '2026-11-26' → '26/11' (a chart's day axis). */
export function formatDayMonth(value: string): string {
  const date = new Date(`${value.slice(0, 10)}T12:00:00`);
  return Number.isNaN(date.getTime())
    ? value
    : dateTimeFormat(locale(), { day: '2-digit', month: '2-digit' }).format(date);
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : dateTimeFormat(locale(), { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : dateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit' }).format(date);
}

/** 95 → '1 h 35', 12 → '12 min'. */
export function formatMinutes(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return '—';
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `${h} h` : `${h} h ${String(rest).padStart(2, '0')}`;
}
