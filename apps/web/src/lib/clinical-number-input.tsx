/**
 * The field of every number a clinician types — a weight, a height, a dose, a vital sign, a result, a volume
 * (issue 34 item 8, docs/decisions/0056-clinical-numbers.md). A text field read with the shared
 * `parseClinicalNumber`: "62,5" and "62.5" alike in both languages, typed, pasted or filled in; shown with the
 * language's separator once the field is left; bounds and decimals said as an error, never clamped nor rounded.
 *
 * What the form receives (`onChange`): the number read, `null` when the field is empty, and `NaN` while the text
 * is refused (unreadable, ambiguous, too many decimals, out of bounds) — never a different number, and never
 * `null`, which would read as "not entered" and let an optional field be saved without it. No contract accepts
 * `NaN` (zod's `z.number()` refuses it), so the form's own check stops the saving, and the field says why.
 */
import {
  type ClinicalNumberResult,
  type ClinicalNumberRule,
  formatClinicalNumber,
  parseClinicalNumber,
} from '@greensen/shared/domain/clinical-number';
import { TextInput, type TextInputProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What a form may hold for a clinical number: a number (`NaN`: refused text), or empty (`null`, `''`). */
export type ClinicalNumberValue = number | string | null | undefined;

export type ClinicalNumberInputProps = Omit<
  TextInputProps,
  'value' | 'defaultValue' | 'onChange' | 'min' | 'max' | 'type'
> &
  ClinicalNumberRule & {
    value?: ClinicalNumberValue;
    /** The number read; `null` when emptied; `NaN` while the text is refused. */
    onChange?: (value: number | null) => void;
    /** The unit shown at the right of the field and in the bounds' message (`kg`, `mmHg`). */
    unit?: string | undefined;
  };

/** The number a form's value stands for (a legacy text value is read too); `NaN` for text that is refused. */
export function clinicalNumberOf(value: ClinicalNumberValue, lang = 'fr'): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const result = parseClinicalNumber(value, lang);
  return result.ok ? result.value : Number.NaN;
}

/** The text a form's value is shown as. */
function textOf(value: ClinicalNumberValue, lang: string): string {
  if (typeof value === 'string') {
    const result = parseClinicalNumber(value, lang);
    return result.ok ? formatClinicalNumber(result.value, lang) : value;
  }
  return typeof value === 'number' ? formatClinicalNumber(value, lang) : '';
}

/** The message of a refused text, in the user's language. */
export function clinicalNumberMessage(
  result: Extract<ClinicalNumberResult, { ok: false }>,
  text: string,
  rule: ClinicalNumberRule & { unit?: string | undefined },
  t: TFunction,
  lang: string,
): string {
  const unit = rule.unit ? ` ${rule.unit}` : '';
  switch (result.error) {
    case 'unreadable':
      return t('common:clinicalNumber.unreadable', { example: formatClinicalNumber(62.5, lang) });
    case 'ambiguous': {
      const [whole = '', fraction = ''] = text.trim().split(/[.,]/);
      return t('common:clinicalNumber.ambiguous', {
        text: text.trim(),
        thousand: `${whole}${fraction}`,
        decimal: formatClinicalNumber(Number(`${whole}.${fraction}`), lang),
      });
    }
    case 'decimals':
      return rule.decimals
        ? t('common:clinicalNumber.decimals', { count: rule.decimals })
        : t('common:clinicalNumber.whole');
    case 'range': {
      const min = formatClinicalNumber(rule.min, lang);
      const max = formatClinicalNumber(rule.max, lang);
      if (min && max) return t('common:clinicalNumber.range', { min, max, unit });
      return min
        ? t('common:clinicalNumber.rangeMin', { min, unit })
        : t('common:clinicalNumber.rangeMax', { max, unit });
    }
  }
}

export function ClinicalNumberInput({
  value,
  onChange,
  min,
  max,
  decimals,
  unit,
  error,
  onBlur,
  ...props
}: ClinicalNumberInputProps) {
  const { t, i18n } = useTranslation('common');
  const lang = i18n.language;
  const rule = { min, max, decimals };
  const [text, setText] = useState(() => textOf(value, lang));
  const [left, setLeft] = useState(false);
  // The value and language last shown: a value set from outside (a reset, a draft, a suggestion) replaces the
  // text unless the text already stands for it; a new language rewrites a number read with its separator.
  const [shown, setShown] = useState({ value, lang });
  if (!Object.is(shown.value, value) || shown.lang !== lang) {
    setShown({ value, lang });
    const current = parseClinicalNumber(text, shown.lang, rule);
    const held = clinicalNumberOf(value, lang);
    const agrees = Number.isNaN(held as number) ? !current.ok : current.ok && current.value === held;
    if (!agrees || (shown.lang !== lang && current.ok)) setText(textOf(held, lang));
  }

  const result = parseClinicalNumber(text, lang, rule);
  // Said once the field was left (or the form tried to save), not at every key of a number being typed.
  const own =
    !result.ok && (left || error) ? clinicalNumberMessage(result, text, { ...rule, unit }, t, lang) : null;
  return (
    <TextInput
      inputMode={decimals === 0 ? 'numeric' : 'decimal'}
      autoComplete="off"
      rightSection={
        unit ? <span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)' }}>{unit}</span> : undefined
      }
      rightSectionWidth={unit ? Math.max(36, 12 + unit.length * 8) : undefined}
      {...props}
      value={text}
      error={own ?? error}
      onChange={(event) => {
        const next = event.currentTarget.value;
        const read = parseClinicalNumber(next, lang, rule);
        const held = read.ok ? read.value : Number.NaN;
        setText(next);
        setShown({ value: held, lang });
        onChange?.(held);
      }}
      onBlur={(event) => {
        setLeft(true);
        if (result.ok && result.value !== null) setText(formatClinicalNumber(result.value, lang));
        onBlur?.(event);
      }}
    />
  );
}
