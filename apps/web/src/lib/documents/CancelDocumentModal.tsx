/**
 * Cancel an issued document (it stays archived; the verification page shows it cancelled) or delete an uploaded
 * one, both with a mandatory reason (the contract's ZDocumentCancel).
 */
import { ZDocumentCancel } from '@greensen/shared/contracts/documents';
import { Text } from '@mantine/core';
import { IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../clinical/components/ReasonModal';
import { useCancelDocument, useDeletePatientDocument } from './api';

export function CancelDocumentModal({
  target,
  onClose,
}: {
  /** The issued document (`issued`) or the upload (`uploaded`) to take back; null when closed. */
  target: { type: 'issued' | 'uploaded'; id: string; label: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const cancel = useCancelDocument();
  const remove = useDeletePatientDocument();
  const uploaded = target?.type === 'uploaded';
  return (
    <ReasonModal
      key={target?.id ?? 'none'}
      opened={target !== null}
      onClose={onClose}
      title={uploaded ? t('cancel.deleteTitle') : t('cancel.title')}
      description={
        <Text size="sm">
          <Text span fw={600}>
            {target?.label}
          </Text>{' '}
          — {uploaded ? t('cancel.deleteDescription') : t('cancel.description')}
        </Text>
      }
      reasonLabel={t('cancel.reason')}
      confirmLabel={uploaded ? t('cancel.confirmDelete') : t('cancel.confirm')}
      confirmIcon={uploaded ? <IconTrash size={16} /> : <IconX size={16} />}
      closeLabel={t('cancel.close')}
      color="red"
      schema={ZDocumentCancel}
      doneTitle={uploaded ? t('cancel.deleted') : t('cancel.done')}
      onConfirm={(reason) =>
        target === null
          ? Promise.resolve()
          : uploaded
            ? remove.mutateAsync({ id: target.id, reason })
            : cancel.mutateAsync({ id: target.id, reason })
      }
    />
  );
}
