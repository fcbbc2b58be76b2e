/** An act's label in the UI language (the catalogue keeps both), for the catalogue and the invoice lines. */
import type { Language } from '@greensen/shared/domain/constants';

export function actLabel(act: { label_fr: string; label_en: string }, lang: Language): string {
  return lang === 'en' ? act.label_en || act.label_fr : act.label_fr || act.label_en;
}
