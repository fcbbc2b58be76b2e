/**
 * The structured frequency of a prescription line (ZFrequency): n times a day, every n hours, at night, as
 * needed (with a maximum a day) or once. The number that goes with the kind sits beside it; changing the kind
 * starts from the usual value (3 times a day, every 8 hours, 4 a day at most).
 */
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import { Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ClinicalNumberInput } from '../../clinical-number-input';

export const FREQUENCY_KINDS = ['times_per_day', 'every_hours', 'at_night', 'as_needed', 'once'] as const;
type FrequencyKind = (typeof FREQUENCY_KINDS)[number];

/** The frequency of a kind with its usual number. */
export function defaultFrequency(kind: FrequencyKind): TFrequency {
  switch (kind) {
    case 'times_per_day':
      return { kind, times: 3 };
    case 'every_hours':
      return { kind, hours: 8 };
    case 'as_needed':
      return { kind, max_per_day: 4 };
    default:
      return { kind };
  }
}

const NUMBER_OF: Partial<Record<FrequencyKind, { field: string; min: number; max: number }>> = {
  times_per_day: { field: 'times', min: 1, max: 12 },
  every_hours: { field: 'hours', min: 1, max: 72 },
  as_needed: { field: 'max_per_day', min: 1, max: 24 },
};

export function FrequencyPicker({
  value,
  onChange,
  error,
}: {
  value: TFrequency;
  onChange: (value: TFrequency) => void;
  error?: string | null;
}) {
  const { t } = useTranslation('pharmacy');
  const number = NUMBER_OF[value.kind];
  const current = number ? (value as unknown as Record<string, number>)[number.field] : undefined;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Select
        label={t('frequency.label')}
        withAsterisk
        allowDeselect={false}
        style={{ flex: 1, minWidth: 150 }}
        data={FREQUENCY_KINDS.map((kind) => ({ value: kind, label: t(`frequency.kinds.${kind}`) }))}
        value={value.kind}
        onChange={(kind) => kind && onChange(defaultFrequency(kind as FrequencyKind))}
        error={error}
      />
      {number && (
        <ClinicalNumberInput
          // A new kind starts afresh. An emptied or refused field is NaN in the frequency: no contract takes it.
          key={value.kind}
          label={t(`frequency.numbers.${value.kind}`)}
          withAsterisk
          w={110}
          min={number.min}
          max={number.max}
          decimals={0}
          value={current}
          onChange={(next) => onChange({ ...value, [number.field]: next ?? Number.NaN } as TFrequency)}
        />
      )}
    </Group>
  );
}
