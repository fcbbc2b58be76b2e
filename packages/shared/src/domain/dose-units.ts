/**
 * The units of doses and of stock as people read them (issue 37): the reference's codes (tablet, capsule, vial,
 * mL…) in French and English, singular and plural. One list for the screens and the printed documents, so a
 * prescription PDF says « gélules » as the prescription screen does, never the code "capsule". A unit that is not
 * a code (a prescriber's free text such as « comprimé ») is shown as written.
 */
import type { Language } from './constants.js';

/** Each code's words: `[one, other]` in French, then in English. */
export const DOSE_UNIT_LABELS: Readonly<
  Record<string, { fr: readonly [string, string]; en: readonly [string, string] }>
> = {
  tablet: { fr: ['comprimé', 'comprimés'], en: ['tablet', 'tablets'] },
  dispersible_tablet: {
    fr: ['comprimé dispersible', 'comprimés dispersibles'],
    en: ['dispersible tablet', 'dispersible tablets'],
  },
  capsule: { fr: ['gélule', 'gélules'], en: ['capsule', 'capsules'] },
  vial: { fr: ['flacon', 'flacons'], en: ['vial', 'vials'] },
  ampoule: { fr: ['ampoule', 'ampoules'], en: ['ampoule', 'ampoules'] },
  bottle: { fr: ['flacon', 'flacons'], en: ['bottle', 'bottles'] },
  sachet: { fr: ['sachet', 'sachets'], en: ['sachet', 'sachets'] },
  tube: { fr: ['tube', 'tubes'], en: ['tube', 'tubes'] },
  suppository: { fr: ['suppositoire', 'suppositoires'], en: ['suppository', 'suppositories'] },
  pessary: { fr: ['ovule', 'ovules'], en: ['pessary', 'pessaries'] },
  bag: { fr: ['poche', 'poches'], en: ['bag', 'bags'] },
  inhaler: { fr: ['inhalateur', 'inhalateurs'], en: ['inhaler', 'inhalers'] },
  implant: { fr: ['implant', 'implants'], en: ['implant', 'implants'] },
  drop: { fr: ['goutte', 'gouttes'], en: ['drop', 'drops'] },
  puff: { fr: ['bouffée', 'bouffées'], en: ['puff', 'puffs'] },
  dose: { fr: ['dose', 'doses'], en: ['dose', 'doses'] },
  mg: { fr: ['mg', 'mg'], en: ['mg', 'mg'] },
  g: { fr: ['g', 'g'], en: ['g', 'g'] },
  µg: { fr: ['µg', 'µg'], en: ['µg', 'µg'] },
  mL: { fr: ['mL', 'mL'], en: ['mL', 'mL'] },
  IU: { fr: ['UI', 'UI'], en: ['IU', 'IU'] },
};

/**
 * A unit written as words rather than as a code (« comprimé », "tablets", as older prescriptions and the demo
 * hold them): its code, so that it agrees with the amount and reads in the document's language all the same.
 */
const UNIT_OF_WORD = new Map(
  Object.entries(DOSE_UNIT_LABELS).flatMap(([code, w]) =>
    [...w.fr, ...w.en].map((word) => [word.toLocaleLowerCase('fr'), code] as const),
  ),
);

/**
 * A unit in words agreeing with the amount, by the language's plural rule ("1 gélule", "1,5 gélule" and
 * "2 gélules" in French; "1 capsule", "1.5 capsules" in English). A unit written as one of the words is read as its code;
 * any other unit is returned as written.
 */
export function doseUnitLabel(unit: string, count: number, lang: Language): string {
  const code = unit.trim();
  const words = Object.hasOwn(DOSE_UNIT_LABELS, code)
    ? DOSE_UNIT_LABELS[code]
    : DOSE_UNIT_LABELS[UNIT_OF_WORD.get(code.toLocaleLowerCase('fr')) ?? ''];
  if (!words) return unit;
  const plural = new Intl.PluralRules(lang === 'en' ? 'en-GB' : 'fr-FR').select(count);
  return words[lang === 'en' ? 'en' : 'fr'][plural === 'one' ? 0 : 1];
}
