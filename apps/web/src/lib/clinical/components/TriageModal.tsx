/** "Trier": the triage form of a visit in a dialog, with the patient (and their allergies) on top. */
import { Loader, Modal, ScrollArea, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useHospitalScale } from '../api/waiting-room';
import { PatientBanner, type PatientRefLike } from './PatientBanner';
import { TriageForm } from './TriageForm';

export function TriageModal({
  admission,
  onClose,
  onDone,
}: {
  /** `reason`: why the patient came, as registered at admission (the chief complaint starts from it). */
  admission: { id: string; patient: PatientRefLike; reason?: string | null } | null;
  onClose: () => void;
  onDone?: (triageId: string) => void;
}) {
  const { t } = useTranslation('triage');
  const scale = useHospitalScale();
  return (
    <Modal
      opened={admission !== null}
      onClose={onClose}
      title={t('form.title')}
      size="xl"
      scrollAreaComponent={ScrollArea.Autosize}
    >
      {admission && (
        <Stack gap="md">
          <PatientBanner patient={admission.patient} />
          {scale ? (
            <TriageForm
              admissionId={admission.id}
              complaint={admission.reason ?? ''}
              scale={scale}
              onCancel={onClose}
              onDone={(id) => {
                onClose();
                onDone?.(id);
              }}
            />
          ) : (
            <Loader />
          )}
        </Stack>
      )}
    </Modal>
  );
}
