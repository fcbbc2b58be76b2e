/**
 * /consultations/create (title key consultation.create.title): a consultation directly for a patient (no
 * visit) — the patient (server search, or `?patient=` from their record), the department (the user's by
 * default) and the reason; it opens the new consultation.
 */

import { ZConsultationCreate } from '@greensen/shared/contracts/consultations';
import { receivesPatients } from '@greensen/shared/domain/admissions';
import { Alert, Button, Group, Paper, Select, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconStethoscope } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { validateWith } from '../../../lib/zod-form';
import { useAuthStore } from '../../../stores/auth';
import { departmentsOfHospital, useUserStore } from '../../../stores/user';
import { useCreateConsultation } from '../api/create-consultation';

interface CreateValues {
  patient: string;
  department: string;
  reason: string;
  [key: string]: unknown;
}

export default function CreateConsultationPage() {
  const { t } = useTranslation('consultations');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const [params] = useSearchParams();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const user = useUserStore((state) => state.user);
  const currentDepartment = useUserStore((state) => state.currentDepartmentId);
  const mine = departmentsOfHospital(user, hospitalId);
  const initialDepartment = mine.some((d) => d.id === currentDepartment)
    ? (currentDepartment ?? '')
    : (mine[0]?.id ?? '');
  const form = useForm<CreateValues>({
    initialValues: { patient: params.get('patient') ?? '', department: initialDepartment, reason: '' },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateConsultation();
  const departments = useDepartments();
  const [general, setGeneral] = useState<string | null>(null);
  const departmentOptions = (departments.data?.results ?? [])
    .filter((d) => d.is_active && receivesPatients(d.kind))
    .map((d) => ({ value: d.id, label: d.name }));

  async function submit() {
    setGeneral(null);
    const values = form.getValues();
    const body = validateWith(
      ZConsultationCreate,
      { ...values, department: values.department || null },
      form,
    );
    if (!body) return;
    try {
      const consultation = await create.mutateAsync(body);
      toast({ kind: 'success', title: t('create.created'), description: consultation.patient.full_name });
      navigate(to(`/consultations/${consultation.id}`));
    } catch (error) {
      const message = applyServerErrors(error);
      if (message || (isApiError(error) && error.status !== 403 && error.status !== 404))
        setGeneral(message ?? (isApiError(error) ? error.message : t('create.failed')));
    }
  }

  return (
    <Stack gap="md" maw={760}>
      <PageHeader title={t('routes:consultation.create.title')} subtitle={t('create.subtitle')} />
      {!can('consultation.create') ? (
        <Alert color="blue">{t('create.notAllowed')}</Alert>
      ) : (
        <Paper withBorder radius="md" p="md">
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Stack gap="sm">
              <PatientPicker
                label={t('create.patient')}
                placeholder={t('create.patientPlaceholder')}
                nothingFound={t('create.noPatient')}
                initialSearch={params.get('q') ?? ''}
                {...form.getInputProps('patient')}
                onChange={(id) => form.setFieldValue('patient', id)}
              />
              <Select
                label={t('create.department')}
                description={t('create.departmentHint')}
                data={departmentOptions}
                searchable
                {...form.getInputProps('department')}
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
              {general && (
                <Alert color="red" role="alert">
                  {general}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => navigate(to('/consultations'))}>
                  {t('common:actions.cancel')}
                </Button>
                <Button type="submit" loading={create.isPending} leftSection={<IconStethoscope size={16} />}>
                  {t('create.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
