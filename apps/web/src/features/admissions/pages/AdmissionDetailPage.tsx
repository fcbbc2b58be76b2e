/**
 * /admissions/:id: the visit (patient with allergies, details, triage summary, assigned doctor), the moves
 * the shared status machine allows, "Affecter" and "Démarrer la consultation".
 */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import { ZCancelBody } from '@greensen/shared/contracts/admissions';
import { ADMISSION_TRANSITIONS, type AdmissionStatus } from '@greensen/shared/domain/admissions';
import { Anchor, Button, Group, Menu, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconChevronDown,
  IconHeartbeat,
  IconPlayerPlay,
  IconStethoscope,
  IconUserCheck,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useOpenConsultationOf } from '../../../lib/clinical/api/list-consultations';
import { useStartConsultation } from '../../../lib/clinical/api/start-consultation';
import { AdmissionStatusBadge } from '../../../lib/clinical/components/AdmissionStatusBadge';
import { AssignPatientModal } from '../../../lib/clinical/components/AssignPatientModal';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { TriageLevelBadge, targetDelayLabel } from '../../../lib/clinical/components/TriageLevelBadge';
import { TriageModal } from '../../../lib/clinical/components/TriageModal';
import { formatDateTime, formatMinutes } from '../../../lib/format';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useCancelAdmission } from '../api/cancel-admission';
import { useChangeAdmissionStatus } from '../api/change-status';
import { useAdmission } from '../api/get-admission';

/** Moves offered from the status menu (assignment, start and cancel have their own buttons). */
const MENU_MOVES: readonly AdmissionStatus[] = ['waiting', 'completed', 'hospitalized', 'transferred'];

function CancelModal({
  admission,
  opened,
  onClose,
}: {
  admission: TAdmission;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('admissions');
  const cancel = useCancelAdmission(admission.id);
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('cancel.title')}
      description={<Text size="sm">{t('cancel.explain', { patient: admission.patient.full_name })}</Text>}
      reasonLabel={t('cancel.reason')}
      closeLabel={t('common:actions.back')}
      confirmLabel={t('cancel.confirm')}
      color="red"
      schema={ZCancelBody}
      onConfirm={(reason) => cancel.mutateAsync(reason)}
      doneTitle={t('cancel.done')}
    />
  );
}

export default function AdmissionDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('admissions');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const { can, groups, userId } = usePermissions();
  const query = useAdmission(id);
  const changeStatus = useChangeAdmissionStatus(id);
  const start = useStartConsultation();
  const openConsultation = useOpenConsultationOf(
    id,
    query.data?.status === 'in_consultation' && can('consultation.edit'),
  );
  const [assigning, setAssigning] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [triaging, setTriaging] = useState(false);

  if (query.isPending || query.isError)
    return <DetailQueryState query={query} titleWidth="40%" blocks={[110, 160]} />;
  const admission = query.data;
  const moves = ADMISSION_TRANSITIONS[admission.status];
  const open = moves.length > 0;
  const canAssign =
    can('patient.assign') && (admission.status === 'waiting' || admission.status === 'assigned');
  const canStart =
    can('consultation.start') &&
    admission.status === 'assigned' &&
    (admission.doctor?.id === userId || groups.includes('head_doctor'));
  const menuMoves = can('admission.status') ? MENU_MOVES.filter((move) => moves.includes(move)) : [];
  const canCancel = can('admission.cancel') && moves.includes('cancelled');
  const canTriage =
    can('triage.record') && (admission.status === 'waiting' || admission.status === 'assigned');

  async function startConsultation() {
    try {
      const consultation = await start.mutateAsync(admission.id);
      toast({ kind: 'success', title: t('start.done'), description: admission.patient.full_name });
      navigate(to(`/consultations/${consultation.id}`));
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('start.failed'), description: error.message });
    }
  }

  async function move(status: AdmissionStatus) {
    try {
      await changeStatus.mutateAsync({ status });
      toast({ kind: 'success', title: t('statusChanged', { status: t(`status.${status}`) }) });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('statusFailed'), description: error.message });
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Group gap="xs">
            <Title order={2}>{t('detail.title', { number: admission.queue_number })}</Title>
            <AdmissionStatusBadge
              status={admission.status}
              size="lg"
              dischargedAt={admission.discharged_at}
            />
          </Group>
          <Text c="dimmed">
            {admission.department.name} · {t(`type.${admission.admission_type}`)} ·{' '}
            {formatDateTime(admission.admitted_at)}
          </Text>
        </div>
        {open && (
          <Group gap="xs">
            {canTriage && (
              <Button
                variant="default"
                leftSection={<IconHeartbeat size={16} />}
                onClick={() => setTriaging(true)}
              >
                {admission.triage ? t('actions.retriage') : t('actions.triage')}
              </Button>
            )}
            {canAssign && (
              <Button
                variant="light"
                leftSection={<IconUserCheck size={16} />}
                onClick={() => setAssigning(true)}
              >
                {admission.doctor ? t('actions.reassign') : t('actions.assign')}
              </Button>
            )}
            {openConsultation && (
              <Button
                component={Link}
                to={to(`/consultations/${openConsultation.id}`)}
                leftSection={<IconStethoscope size={16} />}
              >
                {t('consultations:open')}
              </Button>
            )}
            {canStart && (
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                loading={start.isPending}
                onClick={() => void startConsultation()}
              >
                {t('actions.start')}
              </Button>
            )}
            {(menuMoves.length > 0 || canCancel) && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button
                    variant="default"
                    rightSection={<IconChevronDown size={14} />}
                    loading={changeStatus.isPending}
                  >
                    {t('actions.status')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {menuMoves.map((status) => (
                    <Menu.Item key={status} onClick={() => void move(status)}>
                      {t(`moves.${status}`)}
                    </Menu.Item>
                  ))}
                  {canCancel && (
                    <>
                      {menuMoves.length > 0 && <Menu.Divider />}
                      <Menu.Item
                        color="red"
                        leftSection={<IconX size={14} />}
                        onClick={() => setCancelling(true)}
                      >
                        {t('actions.cancel')}
                      </Menu.Item>
                    </>
                  )}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        )}
      </Group>

      <PatientBanner patient={admission.patient} />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={4}>{t('detail.visit')}</Title>
            <SimpleGrid cols={2} spacing="sm">
              <DetailField label={t('fields.reason')}>
                <Text size="sm">{admission.reason}</Text>
              </DetailField>
              <DetailField label={t('columns.queue')}>
                <Text size="sm" fw={700}>
                  #{admission.queue_number}
                </Text>
              </DetailField>
              <DetailField label={t('columns.arrival')}>
                <Text size="sm">{formatDateTime(admission.admitted_at)}</Text>
              </DetailField>
              <DetailField label={t('detail.waited')}>
                <Text size="sm">{formatMinutes(admission.waited_minutes)}</Text>
              </DetailField>
              <DetailField label={t('columns.doctor')}>
                <Text size="sm" data-testid="assigned-doctor">
                  {admission.doctor ? (
                    <Anchor component={Link} to={to(`/doctors/${admission.doctor.id}`)}>
                      {admission.doctor.full_name}
                    </Anchor>
                  ) : (
                    t('detail.unassigned')
                  )}
                </Text>
              </DetailField>
              {admission.closed_at && (
                <DetailField label={t('detail.closedAt')}>
                  <Text size="sm">{formatDateTime(admission.closed_at)}</Text>
                </DetailField>
              )}
              {admission.cancel_reason && (
                <DetailField label={t('cancel.reason')}>
                  <Text size="sm">{admission.cancel_reason}</Text>
                </DetailField>
              )}
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={4}>{t('detail.triage')}</Title>
            {admission.triage ? (
              <Stack gap="xs">
                <Group gap="sm">
                  <TriageLevelBadge
                    level={admission.triage.level}
                    targetMinutes={admission.triage.target_minutes}
                    size="xl"
                  />
                  <Text size="sm">{targetDelayLabel(admission.triage.target_minutes, t)}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {t('triage:recordedAt', { date: formatDateTime(admission.triage.recorded_at) })}
                </Text>
                <Anchor component={Link} to={to(`/triage/${admission.triage.id}`)} size="sm">
                  {t('detail.openTriage')}
                </Anchor>
              </Stack>
            ) : (
              <Text c="dimmed" size="sm">
                {t('detail.notTriaged')}
              </Text>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>

      <AssignPatientModal opened={assigning} onClose={() => setAssigning(false)} admissionId={admission.id} />
      <CancelModal admission={admission} opened={cancelling} onClose={() => setCancelling(false)} />
      <TriageModal admission={triaging ? admission : null} onClose={() => setTriaging(false)} />
    </Stack>
  );
}
