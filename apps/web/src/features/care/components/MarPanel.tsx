/**
 * The medication administration record of a stay (issue 20): from the stay's signed prescriptions, the doses due
 * in a time window (the previous, current or next shift), one line per prescribed medicine. Each dose is a big
 * button: due (blue), overdue (red), given (green, with the time and who), not given (orange, with the reason).
 * Tapping a dose still due opens its form (given / not given, recorded once — DoseModal); an "as needed" line
 * records a dose when it is given.
 *
 * Medication safety (issue 34): each line shows its alerts from the server (the dialog shows them in full with
 * the prescriber's override reason and the five rights), and a line whose first dose is still to come offers
 * "Première dose maintenant" (stat): the dose is given now and the line's schedule follows from it.
 */
import type { TDose } from '@greensen/shared/contracts/care';
import type { TMarSafe, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import type { TPresentation } from '@greensen/shared/contracts/pharmacy';
import { Badge, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBolt, IconCheck, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DoseModal, type DosePatient } from '../../../lib/clinical/components/care/DoseModal';
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
type MarLine = TMarSafe['lines'][number];

const SEVERITY_COLORS = { info: 'blue', warning: 'orange', blocking: 'red' } as const;

/** The MAR's patient as the dose dialog shows it (the five rights). */
function dosePatient(mar: TMarSafe | undefined): DosePatient | null {
  const p = mar?.patient;
  if (!p) return null;
  return {
    full_name: p.full_name,
    record_number: p.record_number,
    birth_date: p.birth_date,
    photo_url: p.photo_url,
    allergies: p.allergies.state === 'not_asked' ? null : p.allergies.items.map((item) => item.text),
  };
}

/**
 * A first dose may be given now when nothing of the line was given or is due yet: a scheduled line, no stat dose
 * already, no dose recorded or overdue in the window, signed less than STAT_RECENT_HOURS ago (a line of yesterday
 * was most likely given in an earlier shift: the server decides, and refuses once a dose was given).
 */
const STAT_RECENT_HOURS = 12;
export function statPossible(line: MarLine, now = Date.now()): boolean {
  if (line.as_needed || line.first_dose_at) return false;
  if (line.doses.some((d) => d.record !== null || d.status === 'overdue')) return false;
  return Date.parse(line.starts_at) > now - STAT_RECENT_HOURS * 3600_000;
}

function LineAlerts({ alerts }: { alerts: readonly TSafetyAlert[] }) {
  const { t } = useTranslation('safety');
  if (alerts.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap">
      {alerts.map((alert) => (
        <Badge
          key={`${alert.code}-${alert.message}`}
          color={SEVERITY_COLORS[alert.severity]}
          variant={alert.severity === 'blocking' ? 'filled' : 'light'}
          leftSection={<IconAlertTriangle size={12} />}
          data-testid="mar-line-alert"
          data-code={alert.code}
          data-severity={alert.severity}
        >
          {t(`codes.${alert.code}`)}
          {alert.override ? ` · ${t('overridden')}` : ''}
        </Badge>
      ))}
    </Group>
  );
}

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
  const [entry, setEntry] = useState<{
    line: MarLine;
    dose: Pick<TDose, 'scheduled_at' | 'status'>;
    stat?: boolean;
  } | null>(null);

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
                {line.first_dose_at && (
                  <Text size="xs" c="blue" fw={600} data-testid="mar-stat-given">
                    {t('mar.stat.given', { time: formatTime(line.first_dose_at) })}
                  </Text>
                )}
              </div>
              <LineAlerts alerts={line.alerts ?? []} />
              <Group gap="xs">
                {canRecord && statPossible(line) && (
                  <Button
                    size="md"
                    variant="outline"
                    color="blue"
                    leftSection={<IconBolt size={16} />}
                    data-testid="mar-stat"
                    onClick={() =>
                      setEntry({
                        line,
                        dose: { scheduled_at: new Date().toISOString(), status: 'due' },
                        stat: true,
                      })
                    }
                  >
                    {t('mar.stat.action')}
                  </Button>
                )}
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
          patient={dosePatient(query.data)}
          alerts={entry.line.alerts ?? []}
          stat={entry.stat}
          onClose={() => setEntry(null)}
        />
      )}
    </Stack>
  );
}
