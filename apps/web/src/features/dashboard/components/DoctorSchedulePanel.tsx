/**
 * The `schedule` tab of My Patients Today: my appointments of today in time order, each with its patient, type and
 * check-in state (waiting for the patient, late, arrived with the queue number of the visit the desk opened,
 * seen, absent, cancelled), a link to the appointment and, once checked in, to the visit. Loaded with the tab
 * (kept out of the signed-in screen's budget, decision 0009).
 */
import type { TAppointment } from '@greensen/shared/contracts/appointments';
import { Anchor, Badge, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTodayAppointments } from '../../../lib/clinical/api/appointments-today';
import {
  AppointmentStatusBadge,
  AppointmentTypeBadge,
} from '../../../lib/clinical/components/AppointmentBadges';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { formatTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const SCOPE = ['dashboard', 'doctor'] as const;

/** The check-in state a doctor reads at a glance. */
export function checkInState(
  a: Pick<TAppointment, 'status' | 'start'>,
  now: number = Date.now(),
): 'expected' | 'late' | 'arrived' | 'seen' | 'absent' | 'cancelled' {
  switch (a.status) {
    case 'checked_in':
      return 'arrived';
    case 'completed':
      return 'seen';
    case 'no_show':
      return 'absent';
    case 'cancelled':
      return 'cancelled';
    default:
      return new Date(a.start).getTime() < now ? 'late' : 'expected';
  }
}

const STATE_COLORS = {
  expected: 'gray',
  late: 'orange',
  arrived: 'green',
  seen: 'teal',
  absent: 'red',
  cancelled: 'gray',
} as const;

export default function DoctorSchedulePanel() {
  const { t } = useTranslation('appointments');
  const to = useLocalizedPath();
  const today = useTodayAppointments(SCOPE);

  if (today.isError) return <LoadError error={today.error} onRetry={() => void today.refetch()} />;
  if (today.isPending)
    return (
      <Group p="lg" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {t('today.loading')}
        </Text>
      </Group>
    );
  const rows = today.data.results;
  if (rows.length === 0)
    return (
      <Text c="dimmed" p="lg" data-testid="schedule-empty">
        {t('today.empty')}
      </Text>
    );
  const arrived = rows.filter((a) => a.status === 'checked_in').length;
  return (
    <Stack gap="xs" p="sm" data-testid="schedule-tab">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('today.summary', { count: rows.length, arrived })}
        </Text>
        <Anchor component={Link} to={to('/calendar')} size="sm">
          {t('today.calendar')}
        </Anchor>
      </Group>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('columns.when')}</Table.Th>
              <Table.Th>{t('columns.patient')}</Table.Th>
              <Table.Th>{t('columns.type')}</Table.Th>
              <Table.Th>{t('today.checkIn')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => {
              const state = checkInState(a);
              return (
                <Table.Tr key={a.id} data-testid="schedule-row" data-state={state}>
                  <Table.Td>
                    <Anchor component={Link} to={to(`/appointments/${a.id}`)} fw={700} size="sm">
                      {formatTime(a.start)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <PatientCell patient={a.patient} />
                  </Table.Td>
                  <Table.Td>
                    <AppointmentTypeBadge type={a.appointment_type} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <Badge
                        color={STATE_COLORS[state]}
                        variant="light"
                        size="sm"
                        data-testid="check-in-state"
                      >
                        {t(`today.state.${state}`)}
                      </Badge>
                      {a.admission && (
                        <Anchor component={Link} to={to(`/admissions/${a.admission.id}`)} size="xs">
                          {t('today.visit', { number: a.admission.queue_number })}
                        </Anchor>
                      )}
                      {state === 'cancelled' && <AppointmentStatusBadge status={a.status} size="xs" />}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
