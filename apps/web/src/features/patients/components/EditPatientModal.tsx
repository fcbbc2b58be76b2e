/** Edit a patient record (PATCH), with the server's field errors under the fields. */
import type { TPatient } from '@greensen/shared/contracts/patients';
import { ScrollArea, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import {
  PatientFields,
  type PatientFormValues,
  validateUpdate,
  valuesFromPatient,
} from '../../../lib/clinical/components/PatientForm';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { useUpdatePatient } from '../api/update-patient';

export function EditPatientModal({
  patient,
  opened,
  onClose,
}: {
  patient: TPatient;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const form = useForm<PatientFormValues>({ initialValues: valuesFromPatient(patient) });
  const applyServerErrors = useServerFieldErrors(form);
  const update = useUpdatePatient(patient.id);
  const [general, setGeneral] = useState<string | null>(null);

  async function submit() {
    const body = validateUpdate(form);
    if (!body) return;
    setGeneral(null);
    try {
      await update.mutateAsync(body);
      toast({ kind: 'success', title: t('edit.saved') });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('edit.failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t('edit.title')}
      size="lg"
      scrollAreaComponent={ScrollArea.Autosize}
      onSubmit={() => void submit()}
    >
      <Stack gap="md">
        <PatientFields form={form} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('common:actions.save')}
          loading={update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
