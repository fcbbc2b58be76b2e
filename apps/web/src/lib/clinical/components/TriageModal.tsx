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
  admission: { id: string; patient: PatientRefLike } | null;
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
