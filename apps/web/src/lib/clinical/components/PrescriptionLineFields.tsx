/**
 * One line of the prescribing form: the medicine (search, then its presentation), dose and unit, route,
 * frequency, duration, quantity (the server's computed value shown until the prescriber types one) and
 * instructions; the posology in words; the line's safety alerts (issue 34), each blocking one with the written
 * reason it asks for, and the stock warnings.
 */
import type { TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import { ROUTES, type TPrescriptionWarning, type TPresentation } from '@greensen/shared/contracts/pharmacy';
import { ActionIcon, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPill, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ClinicalNumberInput } from '../../clinical-number-input';
import { uiLanguage } from '../../i18n';
import { useMedication } from '../api/medications';
import { FrequencyPicker } from './FrequencyPicker';
import { MedicationSearch } from './MedicationSearch';
import { PrescriptionWarningAlert } from './PrescriptionBadges';
import {
  medicationName,
  posologyText,
  presentationLabel,
  routeLabel,
  unitLabel,
} from './prescription-format';
import { type LineValues, numberOrNull, type PrescriptionValues } from './prescription-lines';
import { asksReason, SafetyAlertList } from './SafetyAlerts';

/** Units a dose may be written in besides the presentation's own counting unit. */
const DOSE_UNITS = ['mg', 'g', 'µg', 'mL', 'IU', 'drop', 'puff'] as const;

/** The presentation a new line starts with: a children's one for a child, else the first active one. */
function firstPresentation(
  presentations: readonly TPresentation[],
  age: number | null,
): TPresentation | null {
  const active = presentations.filter((p) => p.is_active);
  const child = age !== null && age < 12 ? active.find((p) => p.paediatric) : undefined;
  return child ?? active[0] ?? presentations[0] ?? null;
}

export function PrescriptionLineFields({
  form,
  index,
  patientAge,
  computedQuantity,
  warnings,
  alerts,
  reasons,
  onReason,
  onRemove,
}: {
  form: UseFormReturnType<PrescriptionValues>;
  index: number;
  patientAge: number | null;
  computedQuantity: number | null;
  warnings: TPrescriptionWarning[];
  alerts: TSafetyAlert[];
  reasons: Readonly<Record<string, string>>;
  onReason: (key: string, reason: string) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const path = `lines.${index}`;
  const line = form.getValues().lines[index] as LineValues;
  // A draft's line knows its own presentation only: the medicine's others come with its record.
  const detail = useMedication(line.medication?.id, line.presentations.length <= 1);
  const presentations = detail.data?.presentations ?? line.presentations;
  const presentation = presentations.find((p) => p.id === line.presentation) ?? null;
  const blocking = alerts.some((a) => a.severity === 'blocking') || warnings.some((w) => w.blocking);
  const dose = numberOrNull(line.dose);
  const unitCodes = [
    ...new Set([presentation?.unit, line.dose_unit, ...DOSE_UNITS].filter(Boolean)),
  ] as string[];

  function choosePresentation(next: TPresentation | null) {
    form.setFieldValue(`${path}.presentation`, next?.id ?? null);
    if (next) {
      form.setFieldValue(`${path}.route`, next.route);
      form.setFieldValue(`${path}.dose_unit`, next.unit);
    }
  }

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="prescription-line"
      style={blocking ? { borderColor: 'var(--mantine-color-red-6)', borderLeftWidth: 4 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
          {line.medication ? (
            <Group gap="xs" wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
              <IconPill size={18} />
              <Text fw={700}>{medicationName(line.medication, lang)}</Text>
              {line.medication.atc_code && (
                <Text size="xs" c="dimmed">
                  {line.medication.atc_code}
                </Text>
              )}
              <Button
                variant="subtle"
                size="compact-xs"
                onClick={() => {
                  form.setFieldValue(`${path}.medication`, null);
                  form.setFieldValue(`${path}.presentation`, null);
                  form.setFieldValue(`${path}.presentations`, []);
                }}
              >
                {t('form.changeMedication')}
              </Button>
            </Group>
          ) : (
            <div style={{ flex: 1 }}>
              <MedicationSearch
                withAsterisk
                error={form.errors[`${path}.presentation`] as string | undefined}
                onPick={(medication) => {
                  form.setFieldValue(`${path}.medication`, medication);
                  form.setFieldValue(`${path}.presentations`, medication.presentations);
                  choosePresentation(firstPresentation(medication.presentations, patientAge));
                }}
              />
            </div>
          )}
          {onRemove && (
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={onRemove}
              aria-label={t('form.removeLine', { number: index + 1 })}
            >
              <IconTrash size={16} />
            </ActionIcon>
          )}
        </Group>

        {line.medication && (
          <>
            {/* Two columns at most: the form lives in a dialog, whose width is not the screen's (four squeezed the
                dose to a few pixels beside its unit). */}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <Select
                label={t('form.presentation')}
                withAsterisk
                allowDeselect={false}
                data={presentations.map((p) => ({
                  value: p.id,
                  label: `${presentationLabel(p)}${p.paediatric ? ` · ${t('paediatric')}` : ''}`,
                  disabled: !p.is_active,
                }))}
                value={line.presentation}
                onChange={(id) => choosePresentation(presentations.find((p) => p.id === id) ?? null)}
                error={form.errors[`${path}.presentation`]}
              />
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <ClinicalNumberInput
                  label={t('form.dose')}
                  withAsterisk
                  min={0.001}
                  max={100_000}
                  decimals={3}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`${path}.dose`)}
                />
                <Select
                  label={t('form.doseUnit')}
                  withAsterisk
                  allowDeselect={false}
                  w={120}
                  data={unitCodes.map((code) => ({ value: code, label: unitLabel(code, 2) }))}
                  {...form.getInputProps(`${path}.dose_unit`)}
                />
              </Group>
              <Select
                label={t('form.route')}
                withAsterisk
                allowDeselect={false}
                data={ROUTES.map((route) => ({ value: route, label: routeLabel(route) }))}
                {...form.getInputProps(`${path}.route`)}
              />
              <ClinicalNumberInput
                label={t('form.duration')}
                min={1}
                max={365}
                decimals={0}
                unit={t('form.days')}
                {...form.getInputProps(`${path}.duration_days`)}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <FrequencyPicker
                value={line.frequency}
                onChange={(frequency) => form.setFieldValue(`${path}.frequency`, frequency)}
                error={form.errors[`${path}.frequency`] as string | undefined}
              />
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <ClinicalNumberInput
                  label={t('form.quantity')}
                  w={150}
                  min={1}
                  max={10_000}
                  decimals={0}
                  placeholder={computedQuantity !== null ? String(computedQuantity) : undefined}
                  description={
                    computedQuantity !== null && numberOrNull(line.quantity) === null
                      ? t('form.quantityComputed', {
                          count: computedQuantity,
                          unit: unitLabel(presentation?.unit ?? '', computedQuantity),
                        })
                      : undefined
                  }
                  {...form.getInputProps(`${path}.quantity`)}
                />
                <TextInput
                  label={t('form.instructions')}
                  placeholder={t('form.instructionsPlaceholder')}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`${path}.instructions`)}
                />
              </Group>
            </SimpleGrid>
            {dose !== null && dose > 0 && line.dose_unit && (
              <Text size="sm" c="dimmed" data-testid="posology">
                {posologyText(
                  {
                    dose,
                    dose_unit: line.dose_unit,
                    frequency: line.frequency,
                    duration_days: numberOrNull(line.duration_days),
                  },
                  lang,
                )}
              </Text>
            )}
          </>
        )}

        <SafetyAlertList alerts={alerts} reasons={reasons} onReason={onReason} asks={asksReason} />
        {warnings.map((warning) => (
          <PrescriptionWarningAlert key={`${warning.kind}-${warning.message}`} warning={warning} />
        ))}
      </Stack>
    </Paper>
  );
}
