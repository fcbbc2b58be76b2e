/** The exam order form in a dialog (from a consultation or a patient's record). */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ExamOrderForm } from './ExamOrderForm';
import type { FixedPatient } from './PatientPicker';

export function OrderExamsModal({
  opened,
  onClose,
  patient,
  consultationId,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  patient: FixedPatient;
  consultationId?: string | null;
  onCreated?: (orders: TExamOrderDetail[]) => void;
}) {
  const { t } = useTranslation('exams');
  return (
    <Modal opened={opened} onClose={onClose} title={t('order.title')} size="lg">
      {opened && (
        <ExamOrderForm
          patient={patient}
          consultationId={consultationId}
          onCancel={onClose}
          onDone={(orders) => {
            onCreated?.(orders);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}
