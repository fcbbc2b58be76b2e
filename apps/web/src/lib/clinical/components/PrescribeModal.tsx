/**
 * The prescribing form in a dialog: a new prescription, or a draft to go on with (loaded first). Saving the
 * draft or signing closes it with a toast.
 */
import type { TPrescription } from '@greensen/shared/contracts/pharmacy';
import { Modal, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../page-states';
import { toast } from '../../toast';
import { usePrescription } from '../api/prescriptions';
import type { PatientRefLike } from './PatientBanner';
import { PrescriptionForm } from './PrescriptionForm';

export function PrescribeModal({
  opened,
  onClose,
  patient,
  consultationId,
  hospitalizationId,
  draftId,
}: {
  opened: boolean;
  onClose: () => void;
  patient: PatientRefLike;
  consultationId?: string | null;
  hospitalizationId?: string | null;
  /** The draft to edit; a new prescription without it. */
  draftId?: string | null;
}) {
  const { t } = useTranslation('pharmacy');
  const draft = usePrescription(draftId ?? '', opened && Boolean(draftId));
  const done = (prescription: TPrescription, signed: boolean) => {
    toast({
      kind: 'success',
      title: signed ? t('form.signed') : t('form.saved'),
      description: prescription.number,
    });
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        draftId
          ? t('form.editTitle', { patient: patient.full_name })
          : t('form.title', { patient: patient.full_name })
      }
      size="xl"
    >
      {opened &&
        (draftId && !draft.data ? (
          draft.isError ? (
            <LoadError error={draft.error} onRetry={() => void draft.refetch()} />
          ) : (
            <Stack gap="sm">
              <Skeleton h={40} />
              <Skeleton h={160} />
            </Stack>
          )
        ) : (
          <PrescriptionForm
            patient={patient}
            consultationId={consultationId}
            hospitalizationId={hospitalizationId}
            draft={draft.data ?? null}
            onCancel={onClose}
            onDone={done}
          />
        ))}
    </Modal>
  );
}
