/**
 * An ICD-10 field of a stay's form: the chosen code(s) as removable chips, and the CIM-10 search to pick one
 * (codes only: a stay's diagnoses are always coded).
 */
import { Badge, CloseButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Icd10Search } from '../../../lib/clinical/components/Icd10Search';

export interface IcdChoice {
  code: string;
  label: string;
}

export function IcdField({
  label,
  value,
  onChange,
  max = 1,
  error,
  withAsterisk,
}: {
  label: string;
  value: IcdChoice[];
  onChange: (value: IcdChoice[]) => void;
  /** How many codes the field holds (1: picking another replaces it). */
  max?: number;
  error?: string | null;
  withAsterisk?: boolean;
}) {
  const { t } = useTranslation('hospitalizations');
  return (
    <Stack gap={6}>
      {(max > 1 || value.length === 0) && (
        <Icd10Search
          label={label}
          withAsterisk={withAsterisk}
          error={error}
          onPick={(entry) => {
            if (value.some((v) => v.code === entry.code)) return;
            onChange(max === 1 ? [entry] : [...value, entry].slice(0, max));
          }}
        />
      )}
      {value.length > 0 && (
        <Stack gap={4}>
          {max === 1 && (
            <Text size="sm" fw={500}>
              {label}
            </Text>
          )}
          <Group gap={6} data-testid="icd-choices">
            {value.map((v) => (
              <Badge
                key={v.code}
                variant="light"
                size="lg"
                radius="sm"
                tt="none"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={t('forms.removeCode', { code: v.code })}
                    onClick={() => onChange(value.filter((other) => other.code !== v.code))}
                  />
                }
              >
                {v.code} · {v.label}
              </Badge>
            ))}
          </Group>
          {max === 1 && error && (
            <Text size="xs" c="red">
              {error}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
