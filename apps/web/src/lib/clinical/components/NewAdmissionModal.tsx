/**
 * New admission: the patient (picker with server search, or fixed when opened from a record), the
 * department, the type and the reason. Validated with the server's schema; field errors shown as returned.
 */

import { ZAdmissionCreate } from '@greensen/shared/contracts/admissions';
import {
  ADMISSION_TYPES,
  type AdmissionType,
  admissionTypesFor,
  receivesPatients,
} from '@greensen/shared/domain/admissions';
import { Select, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLogin2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api-client';
import { useServerFieldErrors } from '../../field-errors';
import { FormFooter, ModalForm } from '../../modal-form';
import { toast } from '../../toast';
import { validateWith } from '../../zod-form';
import { useCreateAdmission } from '../api/create-admission';
import { useDepartments } from '../api/list-departments';
import { type FixedPatient, PatientPicker } from './PatientPicker';

interface AdmissionFormValues {
  patient: string;
  department: string;
  admission_type: AdmissionType | '';
  reason: string;
  [key: string]: unknown;
}

/** The type a department usually receives. */
function defaultTypeFor(kind: string | undefined): AdmissionType | '' {
  if (kind === 'emergency') return 'emergency';
  if (kind === 'maternity') return 'maternity';
  return kind ? 'outpatient' : '';
}

export function NewAdmissionModal({
  opened,
  onClose,
  onCreated,
  patient,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (admissionId: string) => void;
  /** The patient when opened from their record (no picker). */
  patient?: FixedPatient;
}) {
  const { t } = useTranslation('admissions');
  const form = useForm<AdmissionFormValues>({
    initialValues: { patient: patient?.id ?? '', department: '', admission_type: '', reason: '' },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateAdmission();
  const departments = useDepartments();
  const [general, setGeneral] = useState<string | null>(null);

  // The visit types the chosen department receives (the server refuses the others, issue 25).
  const chosenKind = departments.data?.results.find((d) => d.id === form.getValues().department)?.kind;
  const typesOfDepartment = chosenKind ? admissionTypesFor(chosenKind) : ADMISSION_TYPES;
  const departmentOptions = (departments.data?.results ?? [])
    .filter((d) => d.is_active && receivesPatients(d.kind))
    .map((d) => ({ value: d.id, label: d.name }));

  function close() {
    form.reset();
    setGeneral(null);
    onClose();
  }

  async function submit() {
    const body = validateWith(ZAdmissionCreate, form.getValues(), form);
    if (!body) return;
    setGeneral(null);
    try {
      const admission = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('create.created'),
        description: t('create.createdHint', {
          number: admission.queue_number,
          patient: admission.patient.full_name,
        }),
      });
      form.reset();
      onCreated(admission.id);
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('create.failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={close}
      title={t('create.title')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <PatientPicker
          fixed={patient}
          enabled={opened}
          label={t('fields.patient')}
          placeholder={t('create.patientPlaceholder')}
          nothingFound={t('create.noPatient')}
          {...form.getInputProps('patient')}
          onChange={(id) => form.setFieldValue('patient', id)}
        />
        <Select
          label={t('fields.department')}
          required
          withAsterisk
          data={departmentOptions}
          searchable
          nothingFoundMessage={departments.isLoading ? t('common:states.loading') : t('create.noDepartment')}
          {...form.getInputProps('department')}
          onChange={(value) => {
            form.setFieldValue('department', value ?? '');
            const kind = departments.data?.results.find((d) => d.id === value)?.kind;
            // Keep the chosen type when the new department receives it, else take the department's usual one.
            const current = form.getValues().admission_type;
            if (!current || (kind && !admissionTypesFor(kind).includes(current)))
              form.setFieldValue('admission_type', defaultTypeFor(kind));
          }}
        />
        <Select
          label={t('fields.type')}
          required
          withAsterisk
          allowDeselect={false}
          data={typesOfDepartment.map((type) => ({ value: type, label: t(`type.${type}`) }))}
          {...form.getInputProps('admission_type')}
        />
        <Textarea
          label={t('fields.reason')}
          required
          withAsterisk
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('reason')}
        />
        <FormFooter
          general={general}
          onCancel={close}
          submitLabel={t('create.submit')}
          loading={create.isPending}
          leftSection={<IconLogin2 size={16} />}
        />
      </Stack>
    </ModalForm>
  );
}
