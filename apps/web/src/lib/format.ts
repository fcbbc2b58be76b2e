/** Dates, times and durations as the UI shows them (in the browser's time zone, in the UI language). */
import { uiLanguage } from './i18n';

/**
 * Every number shown to a clinician — a vital sign, a weight, a dose, a result, a rate — as the language writes it
 * (issue 37): `38,7`, `62,5`, `3 000` in French; `38.7`, `62.5`, `3,000` in English; up to 3 decimals. Fields write
 * their text with the shared `formatClinicalNumber` instead (no grouping, so that it reads back).
 */
export function formatNumber(value: number, lang: string = uiLanguage()): string {
  return value.toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR', { maximumFractionDigits: 3 });
}

function locale(): string {
  return uiLanguage() === 'fr' ? 'fr-FR' : 'en-GB';
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T12:00:00` : value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(locale());
}

/** '2026-11-26' → '26/11' (a chart's day axis). */
export function formatDayMonth(value: string): string {
  const date = new Date(`${value.slice(0, 10)}T12:00:00`);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleDateString(locale(), { day: '2-digit', month: '2-digit' });
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit' });
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
