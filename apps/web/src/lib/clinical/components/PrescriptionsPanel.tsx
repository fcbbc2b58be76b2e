/**
 * The prescriptions of a consultation (beside its form) or of a stay (on its page) (issue 18): each with its
 * number, status and medicines; "Prescrire" while the consultation may be edited or the stay is open
 * (practitioners), a draft to go on with, and cancelling with a reason what the server allows. The consultations
 * and hospitalizations features place it; it hides itself for users without the pharmacy module (whose API would
 * refuse them).
 */
import { ZPrescriptionCancel } from '@greensen/shared/contracts/pharmacy';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconPill, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../format';
import { LoadError } from '../../page-states';
import { useLocalizedPath } from '../../use-localized-path';
import { type TPrescriptionListItem, useCancelPrescription, usePrescriptions } from '../api/prescriptions';
import type { PatientRefLike } from './PatientBanner';
import { PrescribeModal } from './PrescribeModal';
import { PrescriptionStatusBadge } from './PrescriptionBadges';
import { useMayPrescribe, usePharmacyAllowed } from './prescription-format';
import { ReasonModal } from './ReasonModal';

/** Cancelling a prescription with its reason (the server keeps it; a new one is then written). */
export function CancelPrescriptionModal({
  prescription,
  onClose,
}: {
  prescription: Pick<TPrescriptionListItem, 'id' | 'number'> | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const cancel = useCancelPrescription();
  return (
    <ReasonModal
      opened={prescription !== null}
      onClose={onClose}
      title={t('cancel.title', { number: prescription?.number ?? '' })}
      description={<Text size="sm">{t('cancel.description')}</Text>}
      reasonLabel={t('cancel.reason')}
      confirmLabel={t('cancel.confirm')}
      closeLabel={t('cancel.keep')}
      confirmIcon={<IconX size={16} />}
      color="red"
      schema={ZPrescriptionCancel}
      onConfirm={(reason) => cancel.mutateAsync({ id: prescription?.id ?? '', reason })}
      doneTitle={t('cancel.done')}
    />
  );
}

export function PrescriptionListRow({
  prescription,
  onEdit,
  onCancel,
}: {
  prescription: TPrescriptionListItem;
  onEdit?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  return (
    <Paper withBorder radius="sm" p="xs" data-testid="prescription-row">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Anchor component={Link} to={to(`/pharmacy/prescriptions/${prescription.id}`)} fw={600} size="sm">
            {prescription.number}
          </Anchor>
          <PrescriptionStatusBadge status={prescription.status} size="xs" />
        </Group>
        <Text size="sm">{prescription.summary}</Text>
        <Text size="xs" c="dimmed">
          {prescription.prescriber.full_name} ·{' '}
          {formatDateTime(prescription.signed_at ?? prescription.created_at)}
        </Text>
        {(onEdit || onCancel) && (
          <Group gap="xs">
            {onEdit && (
              <Button size="compact-xs" variant="light" leftSection={<IconEdit size={12} />} onClick={onEdit}>
                {t('actions.continueDraft')}
              </Button>
            )}
            {onCancel && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                leftSection={<IconX size={12} />}
                onClick={onCancel}
              >
                {t('actions.cancel')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** What the prescriptions are written from: a consultation, or an inpatient stay. */
export type PrescriptionSource = { consultation: string } | { hospitalization: string };

export function PrescriptionsPanel({
  source,
  patient,
  canPrescribe,
}: {
  source: PrescriptionSource;
  patient: PatientRefLike;
  /** The consultation may be edited, or the stay is open: prescribing is offered (to prescribers). */
  canPrescribe: boolean;
}) {
  const { t } = useTranslation('pharmacy');
  const allowed = usePharmacyAllowed();
  const mayPrescribe = useMayPrescribe() && canPrescribe;
  const [editing, setEditing] = useState<{ draftId: string | null } | null>(null);
  const [cancelling, setCancelling] = useState<TPrescriptionListItem | null>(null);
  const fromStay = 'hospitalization' in source;
  const sourceId = fromStay ? source.hospitalization : source.consultation;
  const query = usePrescriptions(
    { ...source, status: 'all', page: 1, pageSize: 50 },
    allowed && Boolean(sourceId),
  );
  if (!allowed) return null;
  const prescriptions = query.data?.results ?? [];

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid={fromStay ? 'stay-prescriptions' : 'consultation-prescriptions'}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <IconPill size={18} />
            <Title order={4}>{t('panel.title')}</Title>
          </Group>
          {mayPrescribe && (
            <Button
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setEditing({ draftId: null })}
            >
              {t('panel.prescribe')}
            </Button>
          )}
        </Group>
        {query.isPending ? (
          <Skeleton h={60} />
        ) : query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : prescriptions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t(fromStay ? 'panel.emptyStay' : 'panel.empty')}
          </Text>
        ) : (
          <Stack gap="xs">
            {prescriptions.map((prescription) => (
              <PrescriptionListRow
                key={prescription.id}
                prescription={prescription}
                onEdit={
                  mayPrescribe && prescription.can.edit
                    ? () => setEditing({ draftId: prescription.id })
                    : undefined
                }
                onCancel={prescription.can.cancel ? () => setCancelling(prescription) : undefined}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <PrescribeModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        patient={patient}
        consultationId={fromStay ? null : sourceId}
        hospitalizationId={fromStay ? sourceId : null}
        draftId={editing?.draftId}
      />
      <CancelPrescriptionModal prescription={cancelling} onClose={() => setCancelling(null)} />
    </Paper>
  );
}
