/** Age and sex as the UI shows them. */
import { translate } from '../../i18n';

/** '36 ans', or '≈ 62 ans' when the birth date is estimated; '—' when unknown. */
export function ageLabel(age: number | null | undefined, estimated = false): string {
  if (age === null || age === undefined) return '—';
  const text = translate('patients:age', { count: age });
  return estimated ? `≈ ${text}` : text;
}

export function sexLabel(sex: string): string {
  return translate(`patients:sex.${sex}`);
}
