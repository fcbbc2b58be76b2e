/**
 * A date typed and shown as `jj/mm/aaaa` whatever the browser's language (issue 25): the UI kit's date input
 * instead of the native one, whose format follows the browser. The value stays `YYYY-MM-DD` ('' when empty), as
 * the API and the forms hold it.
 */
import '@mantine/dates/styles.css';
import {
  DateInput,
  type DateInputProps,
  DatesProvider,
  DateTimePicker,
  type DateTimePickerProps,
  TimePicker,
  type TimePickerProps,
} from '@mantine/dates';
import 'dayjs/locale/fr';
import { useTranslation } from 'react-i18next';

/** `31/12/2026`, `31-12-2026`, `31.12.2026` or `2026-12-31` as `2026-12-31`; null when it is not a real date. */
export function parseTypedDate(input: string): string | null {
  const text = input.trim();
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = dmy
    ? [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [0, 0, 0];
  if (!year) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export type DateFieldProps = Omit<
  DateInputProps,
  'value' | 'onChange' | 'dateParser' | 'valueFormat' | 'minDate' | 'maxDate' | 'min' | 'max'
> & {
  value?: string | null;
  onChange?: (value: string) => void;
  /** Earliest and latest dates allowed (`YYYY-MM-DD`), as the native input's `min` and `max`. */
  min?: string | undefined;
  max?: string | undefined;
};

export function DateField({ value, onChange, min, max, ...props }: DateFieldProps) {
  const { t, i18n } = useTranslation('common');
  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'fr', firstDayOfWeek: 1 }}>
      <DateInput
        valueFormat="DD/MM/YYYY"
        dateParser={parseTypedDate}
        placeholder={t('dateField.placeholder')}
        clearButtonProps={{ 'aria-label': t('actions.clear') }}
        minDate={min}
        maxDate={max}
        {...props}
        value={value ? value : null}
        onChange={(next) => onChange?.(next ?? '')}
      />
    </DatesProvider>
  );
}

export type DateTimeFieldProps = Omit<
  DateTimePickerProps,
  'value' | 'onChange' | 'valueFormat' | 'minDate' | 'maxDate' | 'type'
> & {
  /** `YYYY-MM-DDTHH:mm` (the native `datetime-local`'s value, local time), '' when empty. */
  value?: string | null;
  onChange?: (value: string) => void;
  min?: string | undefined;
  max?: string | undefined;
};

/** `2026-12-06T17:50` as the picker holds it (`2026-12-06 17:50:00`), and back. */
const toPicker = (value: string | null | undefined) =>
  value ? `${value.slice(0, 16).replace('T', ' ')}:00` : null;
const fromPicker = (value: string | null) => (value ? value.slice(0, 16).replace(' ', 'T') : '');

/**
 * A date and time shown as the language writes them, `06/12/2026 17:50` on a 24-hour clock (issue 37): never the
 * native `datetime-local`, which shows "12/06/2026, 05:50 PM" to a French user on an English browser.
 */
export function DateTimeField({ value, onChange, min, max, ...props }: DateTimeFieldProps) {
  const { t, i18n } = useTranslation('common');
  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'fr', firstDayOfWeek: 1 }}>
      <DateTimePicker
        valueFormat="DD/MM/YYYY HH:mm"
        clearButtonProps={{ 'aria-label': t('actions.clear') }}
        timePickerProps={{ format: '24h' }}
        minDate={toPicker(min) ?? undefined}
        maxDate={toPicker(max) ?? undefined}
        {...props}
        value={toPicker(value)}
        onChange={(next) => onChange?.(fromPicker(next))}
      />
    </DatesProvider>
  );
}

export type TimeFieldProps = Omit<TimePickerProps, 'format' | 'value' | 'onChange'> & {
  /** `HH:mm`, '' when empty. */
  value?: string | null;
  onChange?: (value: string) => void;
};

/**
 * A time of day on a 24-hour clock whatever the browser's language (never the native `time` field's AM/PM). Its
 * hours are named by the label, or by `aria-label` when the field has no visible label (a table's cell); its
 * minutes « Minutes ».
 */
export function TimeField({ value, onChange, 'aria-label': ariaLabel, ...props }: TimeFieldProps) {
  const { t } = useTranslation('common');
  return (
    <TimePicker
      format="24h"
      hoursInputLabel={ariaLabel}
      minutesInputLabel={t('dateField.minutes')}
      {...props}
      value={value ?? ''}
      onChange={(next) => onChange?.(next.slice(0, 5))}
    />
  );
}
