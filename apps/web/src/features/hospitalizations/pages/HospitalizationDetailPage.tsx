/**
 * /hospitalizations/:id (the stay page): the patient with allergies, the bed and ward, days in hospital, status,
 * reason and diagnoses (provisional, and the consultation's that sent the patient in), the discharge when closed,
 * the progress notes, the bed moves and the transfers of the stay; and the actions the user may take now (the
 * stay's `can`): change it, place or move the patient, ask a transfer, discharge. Once closed it is read-only
 * apart from addenda. A missing stay (or another hospital's) goes to the error page with type hospitalization.
 */
import {
  OPEN_HOSPITALIZATION_STATUSES,
  type THospitalizationDetail,
} from '@greensen/shared/contracts/hospitalizations';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  IconArrowsExchange,
  IconBed,
  IconDoorExit,
  IconNurse,
  IconPencil,
  IconSkull,
  IconTransfer,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useBillingRights } from '../../../lib/billing/rights';
import { StayDepositsPanel } from '../../../lib/billing/StayDepositsPanel';
import { FollowUpBookingButton } from '../../../lib/clinical/components/FollowUpBooking';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { PrescriptionsPanel } from '../../../lib/clinical/components/PrescriptionsPanel';
import { IssueDocumentButton } from '../../../lib/documents/IssueDocumentButton';
import { formatDate, formatDateTime } from '../../../lib/format';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { useModuleAllowed, usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useAssignBed } from '../api/board';
import { useStay } from '../api/stays';
import { BedPickerModal } from '../components/BedPickerModal';
import { DischargeModal } from '../components/DischargeModal';
import { PlacementConfirmModal, type PlacementTarget } from '../components/PlacementConfirmModal';
import { ProgressNotes } from '../components/ProgressNotes';
import { placeLabel, StayStatusBadge } from '../components/StayBadges';
import { StayFormModal } from '../components/StayFormModal';
import { StayOrdersPanel } from '../components/StayOrdersPanel';
import { TransferRequestModal } from '../components/TransferRequestModal';
import { TransfersTable } from '../components/TransfersTable';
import { useInpatientRefresh } from '../components/useInpatientRefresh';

type Dialog = 'edit' | 'bed' | 'transfer' | 'discharge' | null;

function icd(value: { code: string; label: string } | null | undefined): string {
  return value ? `${value.code} · ${value.label}` : '—';
}

/** The stay's diagnoses, once each: the consultation's (primary first), then the provisional one. */
function stayDiagnoses(stay: THospitalizationDetail): { code: string; label: string }[] {
  const all = [
    ...stay.consultation_diagnoses.filter((d) => d.code),
    ...(stay.provisional_diagnosis ? [stay.provisional_diagnosis] : []),
  ];
  return all
    .filter((d, i) => all.findIndex((o) => o.code === d.code) === i)
    .map((d) => ({ code: d.code, label: d.label }));
}

function DischargeCard({ stay }: { stay: THospitalizationDetail }) {
  const { t } = useTranslation('hospitalizations');
  const d = stay.discharge;
  if (!d) return null;
  const deceased = d.mode === 'deceased';
  return (
    <Paper withBorder radius="md" p="md" data-testid="discharge-summary">
      <Stack gap="sm">
        <Group gap="xs">
          {deceased ? <IconSkull size={18} /> : <IconDoorExit size={18} />}
          <Title order={4}>{t('discharge.summaryTitle')}</Title>
          <Badge color={deceased ? 'dark' : 'green'} variant="light">
            {t(`discharge.modes.${d.mode}`)}
          </Badge>
        </Group>
        {deceased && (
          <Alert color="dark" title={t('discharge.deceasedTitle')}>
            {t('discharge.deceasedAt', { date: formatDateTime(d.death_at), cause: icd(d.death_cause) })}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <DetailField label={t('discharge.diagnoses')}>
            {d.diagnoses.length === 0 ? (
              <Text size="sm">—</Text>
            ) : (
              d.diagnoses.map((dx) => (
                <Text key={dx.code} size="sm">
                  {icd(dx)}
                </Text>
              ))
            )}
          </DetailField>
          <DetailField label={t('discharge.by')}>
            <Text size="sm">
              {d.discharged_by.full_name} · {formatDateTime(stay.ended_at)}
            </Text>
          </DetailField>
          <DetailField label={t('discharge.treatments')}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {d.treatments || '—'}
            </Text>
          </DetailField>
          <DetailField label={t('discharge.followUp')}>
            <Group gap="sm">
              <Text size="sm">{formatDate(d.follow_up_date)}</Text>
              <FollowUpBookingButton
                patient={stay.patient}
                date={d.follow_up_date}
                provider={stay.doctor.id}
                department={stay.department.id}
              />
            </Group>
          </DetailField>
        </SimpleGrid>
        <DetailField label={t('discharge.summary')}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {d.summary}
          </Text>
        </DetailField>
      </Stack>
    </Paper>
  );
}

function BedMoves({ stay }: { stay: THospitalizationDetail }) {
  const { t } = useTranslation('hospitalizations');
  if (stay.bed_moves.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noMoves')}
      </Text>
    );
  return (
    <Timeline bulletSize={20} lineWidth={2} active={stay.bed_moves.length - 1} data-testid="bed-moves">
      {stay.bed_moves.map((move) => (
        <Timeline.Item key={move.id} bullet={<IconBed size={12} />} title={placeLabel(move.place, t)}>
          <Text size="xs" c="dimmed">
            {formatDateTime(move.started_at)} →{' '}
            {move.ended_at ? formatDateTime(move.ended_at) : t('detail.now')}
          </Text>
          {move.assigned_by && (
            <Text size="xs" c="dimmed">
              {t('detail.placedBy', { name: move.assigned_by.full_name })}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

export default function HospitalizationDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('hospitalizations');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const careAllowed = useModuleAllowed('care');
  const billing = useBillingRights();
  const query = useStay(id);
  const assign = useAssignBed();
  const [placing, setPlacing] = useState<PlacementTarget | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [transfersPage, setTransfersPage] = useState(1);
  useInpatientRefresh();

  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 240]} testId="stay-loading" />;
  const stay = query.data;
  const open = (OPEN_HOSPITALIZATION_STATUSES as readonly string[]).includes(stay.status);
  const close = () => setDialog(null);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2}>{t('detail.title', { patient: stay.patient.full_name })}</Title>
            <StayStatusBadge status={stay.status} size="lg" />
            {stay.open_transfer && (
              <Badge color="grape" variant="light" size="lg" leftSection={<IconTransfer size={14} />}>
                {t('board.transferPending')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed">
            {stay.place ? placeLabel(stay.place, t) : open ? t('place.pending') : t('detail.closed')} ·{' '}
            {t('days', { count: stay.days })}
            {stay.expected_days ? ` / ${t('detail.expected', { count: stay.expected_days })}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          {careAllowed && (
            <Button
              component={Link}
              to={to(`/care?stay=${stay.id}`)}
              variant="light"
              color="teal"
              leftSection={<IconNurse size={16} />}
            >
              {t('detail.careFile')}
            </Button>
          )}
          {stay.can.edit && (
            <Button
              variant="default"
              leftSection={<IconPencil size={16} />}
              onClick={() => setDialog('edit')}
            >
              {t('detail.edit')}
            </Button>
          )}
          {stay.can.assign_bed && (
            <Button
              variant="light"
              leftSection={stay.place ? <IconArrowsExchange size={16} /> : <IconBed size={16} />}
              onClick={() => setDialog('bed')}
            >
              {stay.place ? t('detail.moveBed') : t('detail.assignBed')}
            </Button>
          )}
          {open && can('transfer.request') && !stay.open_transfer && (
            <Button
              variant="light"
              color="grape"
              leftSection={<IconTransfer size={16} />}
              onClick={() => setDialog('transfer')}
            >
              {t('detail.requestTransfer')}
            </Button>
          )}
          <IssueDocumentButton
            source={{ type: 'hospitalization', id: stay.id }}
            defaultKind={open ? 'medical_certificate' : 'discharge_summary'}
          />
          {stay.can.discharge && (
            <Button
              color="green"
              leftSection={<IconDoorExit size={16} />}
              onClick={() => setDialog('discharge')}
            >
              {t('detail.discharge')}
            </Button>
          )}
        </Group>
      </Group>

      <PatientBanner patient={stay.patient} />
      {!open && (
        <Alert color="gray" data-testid="stay-closed">
          {t('detail.readOnly')}
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder radius="md" p="md" h="100%">
            <Stack gap="sm">
              <Title order={4}>{t('detail.stay')}</Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <DetailField label={t('detail.place')}>
                  <Text size="sm">
                    {stay.place ? placeLabel(stay.place, t) : open ? t('place.pending') : '—'}
                  </Text>
                </DetailField>
                <DetailField label={t('detail.department')}>
                  <Text size="sm">
                    {stay.department.name} · {stay.doctor.full_name}
                  </Text>
                </DetailField>
                <DetailField label={t('detail.requested')}>
                  <Text size="sm">{formatDateTime(stay.requested_at)}</Text>
                </DetailField>
                <DetailField label={t('detail.admitted')}>
                  <Text size="sm">{formatDateTime(stay.admitted_at)}</Text>
                </DetailField>
                <DetailField label={t('detail.provisional')}>
                  <Text size="sm">{icd(stay.provisional_diagnosis)}</Text>
                </DetailField>
                <DetailField label={t('detail.consultationDiagnoses')}>
                  {stay.consultation_diagnoses.length === 0 ? (
                    <Text size="sm">—</Text>
                  ) : (
                    stay.consultation_diagnoses.map((dx) => (
                      <Text key={`${dx.rank}-${dx.code}`} size="sm">
                        {icd(dx)}{' '}
                        <Text span size="xs" c="dimmed">
                          ({t(`detail.rank.${dx.rank}`, { defaultValue: dx.rank })})
                        </Text>
                      </Text>
                    ))
                  )}
                  {stay.consultation && (
                    <Anchor component={Link} to={to(`/consultations/${stay.consultation}`)} size="sm">
                      {t('detail.openConsultation')}
                    </Anchor>
                  )}
                </DetailField>
              </SimpleGrid>
              <DetailField label={t('detail.reason')}>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {stay.reason}
                </Text>
              </DetailField>
              {stay.created_by && (
                <Text size="xs" c="dimmed">
                  {t('detail.createdBy', { name: stay.created_by.full_name })}
                </Text>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="md" p="md" h="100%">
            <Stack gap="sm">
              <Title order={4}>{t('detail.moves')}</Title>
              <BedMoves stay={stay} />
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>

      <DischargeCard stay={stay} />

      {billing.read && <StayDepositsPanel stayId={stay.id} canTake={billing.staff} />}

      <StayOrdersPanel orders={stay.orders} stayId={stay.id} />

      <PrescriptionsPanel source={{ hospitalization: stay.id }} patient={stay.patient} canPrescribe={open} />

      <ProgressNotes
        stay={stay.id}
        canWrite={open && stay.can.note}
        canAddendum={stay.can.note || (!open && can('hospitalization.note'))}
      />

      <Stack gap="xs" component="section" aria-label={t('detail.transfers')}>
        <Title order={4}>{t('detail.transfers')}</Title>
        <TransfersTable
          filters={{
            status: 'all',
            direction: 'all',
            hospitalization: stay.id,
            page: transfersPage,
            pageSize: 10,
          }}
          onPageChange={setTransfersPage}
          emptyText={t('detail.noTransfers')}
        />
      </Stack>

      {dialog === 'edit' && <StayFormModal stay={stay} opened onClose={close} />}
      {dialog === 'discharge' && (
        <DischargeModal
          stay={stay.id}
          patient={stay.patient.full_name}
          diagnoses={stayDiagnoses(stay)}
          opened
          onClose={close}
        />
      )}
      {dialog === 'transfer' && (
        <TransferRequestModal stay={stay.id} patient={stay.patient.full_name} opened onClose={close} />
      )}
      <BedPickerModal
        opened={dialog === 'bed'}
        onClose={close}
        title={t('board.pickTitle', { patient: stay.patient.full_name })}
        onPick={async (_bed, target) => setPlacing(target)}
      />
      <PlacementConfirmModal
        stay={stay.id}
        patient={stay.patient.full_name}
        target={placing}
        onClose={() => setPlacing(null)}
        onConfirm={async (reason) => {
          if (!placing) return;
          await assign.mutateAsync({ stay: stay.id, bed: placing.bed, override_reason: reason });
          toast({
            kind: 'success',
            title: t(stay.place ? 'board.moved' : 'board.assigned'),
            description: stay.patient.full_name,
          });
        }}
      />
    </Stack>
  );
}
