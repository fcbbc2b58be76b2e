/** Exams as the UI shows them: names and values in the UI language, and whether the user has the module. */
import type { TExamResultLine } from '@greensen/shared/contracts/exams';
import type { Language } from '@greensen/shared/domain/constants';
import { REFERENCE_ABSENT } from '@greensen/shared/domain/exams';
import { formatNumber } from '../../format';
import { useModuleAllowed } from '../../permissions';

/** The label of a bilingual catalogue item (exam, field, choice) in a language. */
export function localized(item: { label_fr: string; label_en: string }, lang: Language): string {
  return lang === 'en' ? item.label_en : item.label_fr;
}

export function examName(exam: { name_fr: string; name_en: string }, lang: Language): string {
  return lang === 'en' ? exam.name_en : exam.name_fr;
}

/** The value of a result line: the choice's label, or the number with its unit, or the text. */
export function lineValue(line: TExamResultLine, lang: Language): string {
  if (line.value_label_fr !== null && line.value_label_en !== null)
    return lang === 'en' ? line.value_label_en : line.value_label_fr;
  if (typeof line.value === 'number') {
    const n = formatNumber(line.value, lang);
    return line.unit ? `${n} ${line.unit}` : n;
  }
  return String(line.value ?? '');
}

/**
 * A reference range as shown (`12 – 16`, `≤ 5`; `0,5 – 50` with the French decimal comma), a normally absent
 * quantity as a word ("absence"), or null.
 */
export function referenceLabel(
  reference: string | null,
  t: (key: string) => string,
  lang: Language,
): string | null {
  if (reference === REFERENCE_ABSENT) return t('exams:results.referenceAbsent');
  return reference !== null && lang === 'fr' ? reference.replace(/(\d)\.(\d)/g, '$1,$2') : reference;
}

/**
 * Whether the user may open the exams module in the current hospital (midwives and secretaries may not):
 * pieces shown outside /exams check it before calling the API (a 403 would send the user home).
 */
export function useExamsAllowed(): boolean {
  return useModuleAllowed('exams');
}
