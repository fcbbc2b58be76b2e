/**
 * /appointments/{id}: the appointment — patient, time, provider, type, reason, notes, status with its dates —
 * its status actions (confirm; check in on the day, which opens the visit, then a link to it; complete; no-show; cancel with
 * a reason), reschedule (the keyboard alternative to dragging in the calendar) and the history of its moves.
 * Actions the user may not take are not shown (the server refuses them too). An unknown id is the error page
 * (no `appointment` type in the specification: the generic page-not-found texts, back to the previous page).
 */
import type { TAppointmentDetail } from '@greensen/shared/contracts/appointments';
import { ZAppointmentCancel } from '@greensen/shared/contracts/appointments';
import { isOpenAppointment } from '@greensen/shared/domain/appointments';
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconCalendarEvent,
  IconCheck,
  IconChecks,
  IconDoorEnter,
  IconUserOff,
  IconX,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import {
  AppointmentStatusBadge,
  AppointmentTypeBadge,
} from '../../../lib/clinical/components/AppointmentBadges';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { formatDateTime } from '../../../lib/format';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { type StatusAction, useChangeAppointmentStatus } from '../api/change-status';
import { useCheckInAppointment } from '../api/check-in';
import { useAppointment } from '../api/get-appointment';
import { RescheduleModal } from '../components/RescheduleModal';
import { capitalizeFirst, formatSlotRange, localDate } from '../components/slot-format';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function appointmentNotFoundPath(id: string): string {
  return `/error-404?${new URLSearchParams({ type: 'appointment', id }).toString()}`;
}

export default function AppointmentDetailPage() {
  const { id = '' } = useParams();
  const to = useLocalizedPath();
  const valid = UUID_RE.test(id);
  const query = useAppointment(id, valid);

  if (!valid) return <Navigate to={to(appointmentNotFoundPath(id))} replace />;
  if (query.isError && isApiError(query.error) && query.error.status === 404)
    return <Navigate to={to(appointmentNotFoundPath(id))} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 200]} testId="appointment-loading" />;
  return <AppointmentView appointment={query.data} />;
}

function AppointmentView({ appointment: a }: { appointment: TAppointmentDetail }) {
  const { t } = useTranslation('appointments');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const change = useChangeAppointmentStatus(a.id);
  const checkIn = useCheckInAppointment(a.id);
  const [cancelling, setCancelling] = useState(false);
  const [moving, setMoving] = useState(false);
  const [running, setRunning] = useState<StatusAction | null>(null);

  const book = can('appointment.book');
  const open = isOpenAppointment(a.status);
  const started = new Date(a.start).getTime() <= Date.now();
  // The desk checks a patient in on the day of the appointment only (the server refuses another day).
  const today = localDate(a.start) === localDate(new Date());

  async function run(action: Exclude<StatusAction, 'cancel'>) {
    setRunning(action);
    try {
      await change.mutateAsync({ action });
      toast({ kind: 'success', title: t(`actions.done.${action}`) });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('actions.failed'), description: error.message });
    } finally {
      setRunning(null);
    }
  }

  async function doCheckIn() {
    try {
      const result = await checkIn.mutateAsync();
      toast({
        kind: 'success',
        title: t('actions.done.check-in'),
        description: t('checkedIn.queue', {
          number: result.admission.queue_number,
          department: result.admission.department.name,
        }),
      });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('actions.failed'), description: error.message });
    }
  }

  const actions: ReactNode[] = [];
  if (open && book)
    actions.push(
      <Button
        key="reschedule"
        variant="default"
        leftSection={<IconCalendarEvent size={16} />}
        onClick={() => setMoving(true)}
      >
        {t('actions.reschedule')}
      </Button>,
    );
  if (open && book)
    actions.push(
      <Button
        key="cancel"
        variant="default"
        color="red"
        leftSection={<IconX size={16} />}
        onClick={() => setCancelling(true)}
      >
        {t('actions.cancel')}
      </Button>,
    );
  if (open && book && started)
    actions.push(
      <Button
        key="no-show"
        variant="default"
        color="red"
        leftSection={<IconUserOff size={16} />}
        loading={running === 'no-show'}
        onClick={() => void run('no-show')}
      >
        {t('actions.no-show')}
      </Button>,
    );
  if (a.status === 'booked' && book)
    actions.push(
      <Button
        key="confirm"
        variant="light"
        leftSection={<IconCheck size={16} />}
        loading={running === 'confirm'}
        onClick={() => void run('confirm')}
      >
        {t('actions.confirm')}
      </Button>,
    );
  if (open && today && can('appointment.check_in'))
    actions.push(
      <Button
        key="check-in"
        leftSection={<IconDoorEnter size={16} />}
        loading={checkIn.isPending}
        onClick={() => void doCheckIn()}
      >
        {t('actions.check-in')}
      </Button>,
    );
  if (a.status === 'checked_in' && book)
    actions.push(
      <Button
        key="complete"
        leftSection={<IconChecks size={16} />}
        loading={running === 'complete'}
        onClick={() => void run('complete')}
      >
        {t('actions.complete')}
      </Button>,
    );

  return (
    <Stack gap="md" data-testid="appointment-page">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2}>{t('detail.title', { patient: a.patient.full_name })}</Title>
            <AppointmentStatusBadge status={a.status} size="lg" />
          </Group>
          <Text c="dimmed" size="sm" data-testid="appointment-when">
            {capitalizeFirst(formatSlotRange(a.start, a.end))} · {a.provider.full_name} · {a.department.name}
          </Text>
        </div>
        {actions.length > 0 && (
          <Group gap="xs" data-testid="appointment-actions">
            {actions}
          </Group>
        )}
      </Group>

      {a.admission && (
        <Alert color="green" icon={<IconDoorEnter size={18} />} data-testid="appointment-admission">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">
              {t('checkedIn.text', {
                date: formatDateTime(a.checked_in_at),
                number: a.admission.queue_number,
              })}
            </Text>
            <Anchor component={Link} to={to(`/admissions/${a.admission.id}`)} size="sm" fw={600}>
              {t('checkedIn.open')} <IconArrowRight size={12} />
            </Anchor>
          </Group>
        </Alert>
      )}
      {a.status === 'cancelled' && (
        <Alert color="gray" icon={<IconX size={18} />}>
          {t('detail.cancelled', { date: formatDateTime(a.cancelled_at), reason: a.cancel_reason ?? '' })}
        </Alert>
      )}
      {a.status === 'no_show' && (
        <Alert color="red" icon={<IconUserOff size={18} />}>
          {t('detail.noShow', { date: formatDateTime(a.no_show_at) })}
        </Alert>
      )}
      {a.overbooked && (
        <Alert color="orange">{t('detail.overbooked', { by: a.overbooked_by?.full_name ?? '—' })}</Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md">
              <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
                <DetailField label={t('detail.type')}>
                  <AppointmentTypeBadge type={a.appointment_type} />
                </DetailField>
                <DetailField label={t('detail.bookedBy')}>{a.booked_by?.full_name ?? '—'}</DetailField>
                <DetailField label={t('detail.bookedAt')}>{formatDateTime(a.created_at)}</DetailField>
                <DetailField label={t('detail.confirmedAt')}>{formatDateTime(a.confirmed_at)}</DetailField>
                <DetailField label={t('detail.checkedInAt')}>{formatDateTime(a.checked_in_at)}</DetailField>
                <DetailField label={t('detail.completedAt')}>{formatDateTime(a.completed_at)}</DetailField>
              </SimpleGrid>
              <Stack gap={4} mt="md">
                <DetailField label={t('detail.reason')}>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {a.reason}
                  </Text>
                </DetailField>
                {a.notes && (
                  <DetailField label={t('detail.notes')}>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {a.notes}
                    </Text>
                  </DetailField>
                )}
              </Stack>
            </Paper>
            <Paper withBorder radius="md" p="md" data-testid="appointment-history">
              <Title order={4} mb="sm">
                {t('history.title')}
              </Title>
              {a.history.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('history.empty')}
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={520}>
                  <Table verticalSpacing="xs">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('history.from')}</Table.Th>
                        <Table.Th>{t('history.to')}</Table.Th>
                        <Table.Th>{t('history.reason')}</Table.Th>
                        <Table.Th>{t('history.by')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {a.history.map((move) => (
                        <Table.Tr key={move.id} data-testid="history-move">
                          <Table.Td>
                            {formatDateTime(move.from_start)}
                            <Text size="xs" c="dimmed">
                              {move.from_provider.full_name}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            {formatDateTime(move.to_start)}
                            <Text size="xs" c="dimmed">
                              {move.to_provider.full_name}
                            </Text>
                          </Table.Td>
                          <Table.Td>{move.reason || '—'}</Table.Td>
                          <Table.Td>
                            {move.moved_by?.full_name ?? '—'}
                            <Text size="xs" c="dimmed">
                              {formatDateTime(move.moved_at)}
                            </Text>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <PatientBanner patient={a.patient} />
        </Grid.Col>
      </Grid>

      <ReasonModal
        opened={cancelling}
        onClose={() => setCancelling(false)}
        title={t('cancel.title')}
        description={
          <Text size="sm">{t('cancel.description', { when: formatSlotRange(a.start, a.end) })}</Text>
        }
        reasonLabel={t('cancel.reason')}
        confirmLabel={t('cancel.confirm')}
        closeLabel={t('cancel.keep')}
        color="red"
        schema={ZAppointmentCancel}
        onConfirm={(reason) => change.mutateAsync({ action: 'cancel', reason })}
        doneTitle={t('actions.done.cancel')}
      />
      <RescheduleModal appointment={moving ? a : null} onClose={() => setMoving(false)} />
    </Stack>
  );
}
