/**
 * The field of an amount typed by a person (issue 21): French decimal comma or a point, spaces between thousands.
 * The field keeps the text as typed; the form reads it with the shared `parseMoney(text, currency)` into integer
 * minor units — never through a floating-point number.
 */
import { TextInput, type TextInputProps } from '@mantine/core';

export type MoneyInputProps = Omit<TextInputProps, 'onChange' | 'value' | 'rightSection'> & {
  value?: string;
  onChange: (value: string) => void;
  /** The currency's code shown at the right of the field. */
  currency: string;
};

/** The text field of an amount: a decimal keyboard on tablets, the currency at the right. */
export function MoneyInput({ value, onChange, currency, ...props }: MoneyInputProps) {
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={<span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)' }}>{currency}</span>}
      rightSectionWidth={48}
    />
  );
}
