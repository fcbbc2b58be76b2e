/** Archive a record with a reason (never deleted). */
import { ZArchiveBody } from '@greensen/shared/contracts/patients';
import { Alert } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { useArchivePatient } from '../api/archive-patient';

export function ArchivePatientModal({
  patient,
  opened,
  onClose,
}: {
  patient: { id: string; full_name: string };
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const archive = useArchivePatient(patient.id);

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('archive.title')}
      description={<Alert color="orange">{t('archive.explain', { name: patient.full_name })}</Alert>}
      reasonLabel={t('archive.reason')}
      hint={t('archive.hint')}
      closeLabel={t('common:actions.cancel')}
      confirmLabel={t('archive.confirm')}
      confirmIcon={<IconArchive size={16} />}
      color="orange"
      schema={ZArchiveBody}
      onConfirm={(reason) => archive.mutateAsync(reason)}
      doneTitle={t('archive.done')}
    />
  );
}
