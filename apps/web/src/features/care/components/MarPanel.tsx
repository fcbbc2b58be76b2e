/**
 * The medication administration record of a stay (issue 20): from the stay's signed prescriptions, the doses due
 * in a time window (the previous, current or next shift), one line per prescribed medicine. Each dose is a big
 * button: due (blue), overdue (red), given (green, with the time and who), not given (orange, with the reason).
 * Tapping a dose still due opens its form (given / not given, recorded once — DoseModal); an "as needed" line
 * records a dose when it is given.
 */
import type { TDose, TMarLine } from '@greensen/shared/contracts/care';
import type { TPresentation } from '@greensen/shared/contracts/pharmacy';
import { Badge, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DoseModal } from '../../../lib/clinical/components/care/DoseModal';
import {
  frequencyLabel,
  medicationName,
  posologyText,
  presentationLabel,
  routeLabel,
} from '../../../lib/clinical/components/prescription-format';
import { formatTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError } from '../../../lib/page-states';
import { useMar, useShift } from '../api/care-file';

type Window = 'previous' | 'current' | 'next';

const DOSE_LOOK = {
  due: { color: 'blue', variant: 'light', Icon: null },
  overdue: { color: 'red', variant: 'filled', Icon: IconAlertTriangle },
  given: { color: 'green', variant: 'light', Icon: IconCheck },
  not_given: { color: 'orange', variant: 'light', Icon: IconX },
} as const;

function DoseButton({ dose, onOpen }: { dose: TDose; onOpen: () => void }) {
  const { t } = useTranslation('care');
  const look = DOSE_LOOK[dose.status];
  const record = dose.record;
  const open = dose.status === 'due' || dose.status === 'overdue';
  const detail = record
    ? record.outcome === 'given'
      ? t('mar.givenBy', { time: formatTime(record.given_at), name: record.recorded_by.full_name })
      : t('mar.notGivenBecause', {
          reason: record.reason ? t(`mar.reasons.${record.reason}`) : '—',
          name: record.recorded_by.full_name,
        })
    : t(`mar.status.${dose.status}`);
  return (
    <Tooltip label={detail}>
      <Button
        size="md"
        color={look.color}
        variant={look.variant}
        leftSection={look.Icon ? <look.Icon size={16} /> : undefined}
        onClick={open ? onOpen : undefined}
        data-disabled={!open || undefined}
        aria-disabled={!open}
        aria-label={`${formatTime(dose.scheduled_at)} — ${detail}`}
        data-testid="mar-dose"
        data-status={dose.status}
        style={open ? undefined : { cursor: 'default' }}
      >
        {formatTime(dose.scheduled_at)}
        {record?.late && (
          <Badge size="xs" color="red" ml={6}>
            {t('tasks.late')}
          </Badge>
        )}
      </Button>
    </Tooltip>
  );
}

export function MarPanel({
  plan,
  patientName,
  canRecord,
}: {
  plan: string;
  patientName: string;
  canRecord: boolean;
}) {
  const { t } = useTranslation('care');
  const lang = uiLanguage();
  const shift = useShift();
  const [windowName, setWindowName] = useState<Window>('current');
  const chosen = windowName === 'current' ? null : (shift.data?.[windowName] ?? null);
  const query = useMar(plan, chosen ? { from: chosen.start, to: chosen.end } : null);
  const [entry, setEntry] = useState<{ line: TMarLine; dose: Pick<TDose, 'scheduled_at' | 'status'> } | null>(
    null,
  );

  return (
    <Stack gap="sm" data-testid="mar">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <SegmentedControl
          size="md"
          value={windowName}
          onChange={(value) => setWindowName(value as Window)}
          data={[
            { value: 'previous', label: t('mar.window.previous') },
            { value: 'current', label: t('mar.window.current') },
            { value: 'next', label: t('mar.window.next') },
          ]}
        />
        {query.data && (
          <Text size="sm" c="dimmed">
            {t('shift.label', { from: formatTime(query.data.from), to: formatTime(query.data.to) })}
          </Text>
        )}
      </Group>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <Skeleton h={160} />
      ) : query.data.lines.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="mar-empty">
          {t('mar.empty')}
        </Text>
      ) : (
        query.data.lines.map((line) => (
          <Paper key={line.id} withBorder radius="md" p="sm" data-testid="mar-line">
            <Stack gap="xs">
              <div>
                <Text fw={700}>
                  {medicationName(line.medication, lang)} ·{' '}
                  {presentationLabel(line as Pick<TPresentation, 'form' | 'strength'>)}
                </Text>
                <Text size="sm">
                  {posologyText({ ...line, duration_days: null }, lang)} · {routeLabel(line.route)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('mar.prescriber', { name: line.prescriber.full_name })}
                  {line.instructions ? ` · ${line.instructions}` : ''}
                </Text>
              </div>
              <Group gap="xs">
                {line.doses.length === 0 && !line.as_needed && (
                  <Text size="sm" c="dimmed">
                    {t('mar.noDose')}
                  </Text>
                )}
                {line.doses.map((dose) => (
                  <DoseButton
                    key={dose.scheduled_at}
                    dose={dose}
                    onOpen={() => canRecord && setEntry({ line, dose })}
                  />
                ))}
                {line.as_needed && canRecord && (
                  <Button
                    size="md"
                    variant="default"
                    leftSection={<IconPlus size={16} />}
                    onClick={() =>
                      setEntry({ line, dose: { scheduled_at: new Date().toISOString(), status: 'due' } })
                    }
                  >
                    {t('mar.asNeeded', { frequency: frequencyLabel(line.frequency) })}
                  </Button>
                )}
              </Group>
            </Stack>
          </Paper>
        ))
      )}
      {entry && (
        <DoseModal
          line={entry.line}
          dose={entry.dose}
          patientName={patientName}
          onClose={() => setEntry(null)}
        />
      )}
    </Stack>
  );
}
