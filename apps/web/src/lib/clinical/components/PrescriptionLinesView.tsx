/**
 * The lines of a written prescription, read-only (the pharmacy's detail and worklist, the consultation's list):
 * medicine and presentation, the posology in words with the route, quantity prescribed and dispensed,
 * instructions, the line's warnings, and an allergy override reason highlighted for the pharmacist. Given the
 * medication-safety alerts of the prescription as it stands now (issue 34), they replace the warnings of signing
 * (whose words were the prescriber's: "Justification requise pour prescrire" on a signed prescription), each with
 * its recorded override.
 */
import type { TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import type { TPrescriptionLine, TPrescriptionWarning } from '@greensen/shared/contracts/pharmacy';
import { Alert, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { uiLanguage } from '../../i18n';
import { PrescriptionWarningAlert } from './PrescriptionBadges';
import {
  medicationName,
  posologyText,
  presentationLabel,
  routeLabel,
  unitLabel,
} from './prescription-format';
import { SafetyAlertList } from './SafetyAlerts';

/** With the safety alerts of issue 34, the old warnings keep only what they alone say: the stock. */
const STOCK_WARNINGS: readonly string[] = ['out_of_stock', 'expired_only'];

export function PrescriptionLinesView({
  lines,
  warnings: allWarnings = [],
  alerts,
}: {
  lines: readonly TPrescriptionLine[];
  warnings?: readonly TPrescriptionWarning[];
  /** The server's safety alerts now (issue 34); when given, they replace the safety warnings. */
  alerts?: readonly TSafetyAlert[];
}) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const warnings = alerts ? allWarnings.filter((w) => STOCK_WARNINGS.includes(w.kind)) : allWarnings;
  return (
    <Stack gap="xs">
      {alerts && <SafetyAlertList alerts={alerts.filter((a) => a.prescription_line === null)} />}
      {warnings
        .filter((w) => w.line === null)
        .map((w) => (
          <PrescriptionWarningAlert key={`${w.kind}-${w.message}`} warning={w} />
        ))}
      {lines.map((line, index) => {
        const done = line.dispensed_quantity >= line.quantity;
        return (
          <Paper
            key={line.id}
            withBorder
            radius="sm"
            p="sm"
            data-testid="prescription-line-view"
            style={
              (alerts ?? []).some((a) => a.prescription_line === line.id && a.severity === 'blocking') ||
              line.allergy_override_reason
                ? { borderColor: 'var(--mantine-color-red-6)', borderLeftWidth: 4 }
                : undefined
            }
          >
            <Stack gap={4}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Group gap="xs" wrap="wrap">
                  <Text fw={700}>{medicationName(line.medication, lang)}</Text>
                  <Text size="sm" c="dimmed">
                    {presentationLabel(line.presentation)}
                  </Text>
                  <Badge variant="outline" color="gray" size="sm">
                    {routeLabel(line.route)}
                  </Badge>
                </Group>
                <Badge
                  variant="light"
                  color={done ? 'green' : line.dispensed_quantity > 0 ? 'orange' : 'gray'}
                  data-testid="line-quantity"
                >
                  {t('lines.quantity', {
                    dispensed: line.dispensed_quantity,
                    count: line.quantity,
                    unit: unitLabel(line.presentation.unit, line.quantity),
                  })}
                </Badge>
              </Group>
              <Text size="sm" data-testid="line-posology">
                {posologyText(line, lang)}
              </Text>
              {line.instructions && (
                <Text size="sm" c="dimmed" fs="italic">
                  {line.instructions}
                </Text>
              )}
              {warnings
                .filter((w) => w.line === index)
                .map((w) => (
                  <PrescriptionWarningAlert key={`${w.kind}-${w.message}`} warning={w} />
                ))}
              {alerts && <SafetyAlertList alerts={alerts.filter((a) => a.prescription_line === line.id)} />}
              {!alerts && line.allergy_override_reason && (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlertTriangle size={18} />}
                  title={t('lines.override')}
                  p="xs"
                  data-testid="override-reason"
                >
                  {line.allergy_override_reason}
                </Alert>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
