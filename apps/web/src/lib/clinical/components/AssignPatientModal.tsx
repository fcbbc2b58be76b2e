/**
 * "Affecter un patient": a waiting (or assigned) visit and a practitioner, listed in the server's order
 * (the visit's department first, then from the least to the most loaded) with their load
 * → POST /api/assign-patient/.
 */
import { ZAssignBody } from '@greensen/shared/contracts/executions';
import { humanizeRoleCode, isRoleCode, ROLE_LABELS } from '@greensen/shared/domain/roles';
import { Badge, Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUserCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../../stores/auth';
import { isApiError } from '../../api-client';
import { useServerFieldErrors } from '../../field-errors';
import { uiLanguage } from '../../i18n';
import { FormFooter, ModalForm } from '../../modal-form';
import { toast } from '../../toast';
import { validateWith } from '../../zod-form';
import { useAssignPatient } from '../api/assign-patient';
import { ADMISSIONS_KEY } from '../api/journey-keys';
import { fetchAdmissions } from '../api/list-admissions';
import { currentLoad, useDoctors } from '../api/list-doctors';
import { levelLabel } from './TriageLevelBadge';

interface AssignValues {
  admission: string;
  doctor: string;
  [key: string]: unknown;
}

export function AssignPatientModal({
  opened,
  onClose,
  admissionId,
  departmentId,
}: {
  opened: boolean;
  onClose: () => void;
  /** Preselected visit (from its page or a queue row). */
  admissionId?: string | null;
  /** Limit the practitioners to a department (optional). */
  departmentId?: string | null;
}) {
  const { t } = useTranslation('admissions');
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const form = useForm<AssignValues>({ initialValues: { admission: admissionId ?? '', doctor: '' } });
  const applyServerErrors = useServerFieldErrors(form);
  const assign = useAssignPatient();
  const [general, setGeneral] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the dialog opens for another visit
  useEffect(() => {
    if (opened) {
      form.setValues({ admission: admissionId ?? '', doctor: '' });
      setGeneral(null);
    }
  }, [opened, admissionId]);

  const admissions = useQuery({
    queryKey: [...ADMISSIONS_KEY, hospitalId, 'assignable'],
    queryFn: ({ signal }) =>
      fetchAdmissions({ status: ['waiting', 'assigned'], ordering: 'queue', page: 1, pageSize: 100 }, signal),
    enabled: opened,
  });
  // The server's order: the visit's department first, then the least loaded.
  const doctors = useDoctors({
    ordering: 'load',
    department: departmentId,
    admission: form.values.admission || null,
    page: 1,
    pageSize: 100,
  });
  const sortedDoctors = doctors.data?.results ?? [];

  const admissionOptions = (admissions.data?.results ?? []).map((a) => ({
    value: a.id,
    label: [
      `#${a.queue_number}`,
      a.patient.full_name,
      a.triage ? `${t('triage:level')} ${levelLabel(a.triage.level, t)}` : t('triage:notTriaged'),
      a.doctor ? `→ ${a.doctor.full_name}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  const doctorOptions = sortedDoctors.map((d) => ({
    value: d.id,
    label: `${d.title_prefix ? `${d.title_prefix} ` : ''}${d.full_name} (${t('assign.load', { count: currentLoad(d.workload) })})`,
  }));

  async function submit() {
    const body = validateWith(ZAssignBody, form.getValues(), form);
    if (!body) return;
    setGeneral(null);
    try {
      const result = await assign.mutateAsync(body);
      const doctor = sortedDoctors.find((d) => d.id === body.doctor);
      toast({
        kind: 'success',
        title: t('assign.done'),
        description: t('assign.doneHint', {
          patient: result.execution.patient.full_name,
          doctor: doctor
            ? `${doctor.title_prefix} ${doctor.full_name}`.trim()
            : (result.execution.doctor?.full_name ?? ''),
        }),
      });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('assign.failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t('assign.title')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <Select
          label={t('assign.admission')}
          placeholder={t('assign.admissionPlaceholder')}
          searchable
          required
          withAsterisk
          data={admissionOptions}
          nothingFoundMessage={admissions.isFetching ? t('common:states.loading') : t('assign.noAdmission')}
          disabled={Boolean(admissionId)}
          {...form.getInputProps('admission')}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('assign.doctor')}
          description={t('assign.doctorHint')}
          placeholder={t('assign.doctorPlaceholder')}
          searchable
          required
          withAsterisk
          data={doctorOptions}
          nothingFoundMessage={doctors.isFetching ? t('common:states.loading') : t('assign.noDoctor')}
          renderOption={({ option }) => {
            const doctor = sortedDoctors.find((d) => d.id === option.value);
            const load = doctor ? currentLoad(doctor.workload) : 0;
            return (
              <Group justify="space-between" wrap="nowrap" w="100%" data-testid="doctor-option">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm">
                    {doctor ? `${doctor.title_prefix} ${doctor.full_name}`.trim() : option.label}
                  </Text>
                  {doctor && (
                    // Who the practitioner is: their role and their departments (issue 25).
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {[
                        ...new Set(
                          doctor.role_codes.map((code) =>
                            isRoleCode(code) ? ROLE_LABELS[code][uiLanguage()] : humanizeRoleCode(code),
                          ),
                        ),
                        ...doctor.departments.map((d) => d.name),
                      ].join(' · ')}
                    </Text>
                  )}
                </div>
                <Badge size="sm" variant="light" color={load === 0 ? 'green' : load < 4 ? 'yellow' : 'red'}>
                  {t('assign.load', { count: load })}
                </Badge>
              </Group>
            );
          }}
          {...form.getInputProps('doctor')}
          comboboxProps={{ withinPortal: true }}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('assign.submit')}
          loading={assign.isPending}
          leftSection={<IconUserCheck size={16} />}
        />
      </Stack>
    </ModalForm>
  );
}
