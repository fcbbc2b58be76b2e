/**
 * Admitting a patient (Nouvelle hospitalisation: from one of their open visits, whose status becomes
 * `hospitalized`) or changing a stay: department, doctor in charge (the author by default), reason, provisional
 * diagnosis (ICD-10) and expected length of stay. Validated with the contract's schemas (ZHospitalizationCreate,
 * ZHospitalizationUpdate); the server's field errors are shown as returned. A new stay opens once created.
 */

import type { TAdmission } from '@greensen/shared/contracts/admissions';
import {
  type THospitalizationDetail,
  ZHospitalizationCreate,
  ZHospitalizationUpdate,
} from '@greensen/shared/contracts/hospitalizations';
import { receivesPatients } from '@greensen/shared/domain/admissions';
import { Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAdmissions } from '../../../lib/clinical/api/list-admissions';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { useDoctors } from '../../../lib/clinical/api/list-doctors';
import { ClinicalNumberInput } from '../../../lib/clinical-number-input';
import { useFormFailure } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { validateWith } from '../../../lib/zod-form';
import { useAdmitPatient, useUpdateStay } from '../api/stays';
import { type IcdChoice, IcdField } from './IcdField';

/** Visits a patient may be admitted from: still under way, or already sent to hospital by a consultation. */
const ADMITTABLE = ['waiting', 'assigned', 'in_consultation', 'hospitalized'] as const;

interface StayValues {
  admission: string | null;
  department: string | null;
  doctor: string | null;
  reason: string;
  provisional_icd_code: IcdChoice[];
  expected_days: number | string | null;
  [key: string]: unknown;
}

function visitLabel(visit: TAdmission, t: (key: string) => string): string {
  return `${visit.patient.full_name} · ${visit.patient.record_number} — ${visit.department.name} · ${formatDateTime(visit.admitted_at)} · ${t(`admissions:status.${visit.status}`)}`;
}

/** The open visit to admit from: a server search on the patient's name or record number. */
function VisitPicker({
  value,
  onChange,
  error,
  opened,
}: {
  value: string | null;
  onChange: (visit: TAdmission | null) => void;
  error?: string;
  opened: boolean;
}) {
  const { t } = useTranslation('hospitalizations');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const visits = useAdmissions(
    { status: [...ADMITTABLE], search: debounced, ordering: '-admitted_at', page: 1, pageSize: 20 },
    opened,
  );
  const [picked, setPicked] = useState<TAdmission | null>(null);
  const found = visits.data?.results ?? [];
  const all = picked && !found.some((v) => v.id === picked.id) ? [picked, ...found] : found;
  return (
    <Select
      label={t('forms.visit')}
      description={t('forms.visitHint')}
      placeholder={t('forms.visitPlaceholder')}
      withAsterisk
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={visits.isFetching ? t('common:states.loading') : t('forms.noVisit')}
      data={all.map((v) => ({ value: v.id, label: visitLabel(v, t) }))}
      value={value}
      error={error}
      onChange={(id) => {
        const visit = all.find((v) => v.id === id) ?? null;
        setPicked(visit);
        onChange(visit);
      }}
      data-testid="visit-picker"
    />
  );
}

export function StayFormModal({
  stay,
  opened,
  onClose,
}: {
  /** The stay to change; a new stay when absent. */
  stay?: THospitalizationDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('hospitalizations');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const form = useForm<StayValues>({
    initialValues: {
      admission: null,
      department: stay?.department.id ?? null,
      doctor: stay?.doctor.id ?? null,
      reason: stay?.reason ?? '',
      provisional_icd_code: stay?.provisional_diagnosis ? [stay.provisional_diagnosis] : [],
      expected_days: stay?.expected_days ?? '',
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('forms.failed'));
  const admit = useAdmitPatient();
  const update = useUpdateStay(stay?.id ?? '');
  const departments = useDepartments();
  const values = form.getValues();
  const doctors = useDoctors({ department: values.department, ordering: 'name', page: 1, pageSize: 100 });

  async function submit() {
    clear();
    const v = form.getValues();
    const common = {
      department: v.department ?? '',
      reason: v.reason,
      provisional_icd_code: v.provisional_icd_code[0]?.code ?? null,
      expected_days: v.expected_days === '' || v.expected_days === null ? null : Number(v.expected_days),
    };
    try {
      if (stay) {
        const body = validateWith(
          ZHospitalizationUpdate,
          { ...common, ...(v.doctor ? { doctor: v.doctor } : {}) },
          form,
        );
        if (!body) return;
        await update.mutateAsync(body);
        toast({ kind: 'success', title: t('forms.saved') });
        onClose();
      } else {
        const body = validateWith(
          ZHospitalizationCreate,
          { ...common, admission: v.admission ?? '', doctor: v.doctor },
          form,
        );
        if (!body) return;
        const created = await admit.mutateAsync(body);
        toast({ kind: 'success', title: t('forms.admitted'), description: created.patient.full_name });
        onClose();
        navigate(to(`/hospitalizations/${created.id}`));
      }
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={stay ? t('forms.editTitle', { patient: stay.patient.full_name }) : t('forms.newTitle')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        {!stay && (
          <VisitPicker
            opened={opened}
            value={values.admission}
            error={form.errors.admission as string | undefined}
            onChange={(visit) => {
              form.setFieldValue('admission', visit?.id ?? null);
              if (visit && !form.getValues().department)
                form.setFieldValue('department', visit.department.id);
              if (visit && !form.getValues().reason) form.setFieldValue('reason', visit.reason);
            }}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('forms.department')}
            withAsterisk
            searchable
            data={(departments.data?.results ?? [])
              .filter((d) => d.id === stay?.department.id || (d.is_active && receivesPatients(d.kind)))
              .map((d) => ({ value: d.id, label: d.name }))}
            {...form.getInputProps('department')}
          />
          <Select
            label={t('forms.doctor')}
            placeholder={stay ? undefined : t('forms.doctorDefault')}
            searchable
            clearable={!stay}
            data={[
              ...(stay && !doctors.data?.results.some((d) => d.id === stay.doctor.id)
                ? [{ value: stay.doctor.id, label: stay.doctor.full_name }]
                : []),
              ...(doctors.data?.results ?? []).map((d) => ({ value: d.id, label: d.full_name })),
            ]}
            {...form.getInputProps('doctor')}
          />
        </SimpleGrid>
        <Textarea
          label={t('forms.reason')}
          withAsterisk
          autosize
          minRows={2}
          {...form.getInputProps('reason')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <IcdField
            label={t('forms.provisional')}
            value={values.provisional_icd_code}
            onChange={(value) => form.setFieldValue('provisional_icd_code', value)}
            error={form.errors.provisional_icd_code as string | undefined}
          />
          <ClinicalNumberInput
            label={t('forms.expectedDays')}
            min={1}
            max={365}
            decimals={0}
            {...form.getInputProps('expected_days')}
          />
        </SimpleGrid>
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={stay ? t('forms.save') : t('forms.admit')}
          loading={admit.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
