/**
 * Asking for a transfer of a stay: internal (to a department, and a ward if known) or external (to another
 * hospital of the installation, which receives the request, or to a facility named in words), with the reason
 * and, for an external referral, the referral letter's summary and current treatments. Validated with the
 * contract's schema (ZTransferCreate); the server's field errors are shown as returned.
 */

import { ZTransferCreate } from '@greensen/shared/contracts/hospitalizations';
import { receivesPatients } from '@greensen/shared/domain/admissions';
import { SegmentedControl, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCensus } from '../api/board';
import { useFacilities, useRequestTransfer } from '../api/transfers';
import type { StayDialogProps } from './DischargeModal';

/** The "another facility" choice of the hospital list: the name is then typed. */
const OTHER = 'other';

interface TransferValues {
  kind: 'internal' | 'external';
  to_department: string | null;
  to_ward: string | null;
  to_hospital: string | null;
  facility_name: string;
  reason: string;
  summary: string;
  treatments: string;
  [key: string]: unknown;
}

export function TransferRequestModal({ stay, patient, opened, onClose }: StayDialogProps) {
  const { t } = useTranslation('hospitalizations');
  const form = useForm<TransferValues>({
    initialValues: {
      kind: 'internal',
      to_department: null,
      to_ward: null,
      to_hospital: null,
      facility_name: '',
      reason: '',
      summary: '',
      treatments: '',
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('forms.failed'));
  const request = useRequestTransfer();
  const departments = useDepartments();
  const census = useCensus();
  const v = form.getValues();
  const facilities = useFacilities(opened && v.kind === 'external');

  async function submit() {
    clear();
    const values = form.getValues();
    const internal = values.kind === 'internal';
    const hospital = !internal && values.to_hospital !== OTHER ? values.to_hospital : null;
    const body = {
      hospitalization: stay,
      kind: values.kind,
      to_department: internal ? values.to_department : null,
      to_ward: internal ? values.to_ward : null,
      to_hospital: hospital,
      facility_name: !internal && !hospital ? values.facility_name.trim() || null : null,
      reason: values.reason,
      summary: values.summary.trim() || null,
      treatments: values.treatments.trim() || null,
    };
    const parsed = validateWith(ZTransferCreate, body, form);
    if (!parsed) return;
    try {
      await request.mutateAsync(parsed);
      toast({ kind: 'success', title: t('transfers.requested'), description: patient });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  const external = v.kind === 'external';
  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t('transfers.requestTitle', { patient })}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t('transfers.kindLabel')}
          data={[
            { value: 'internal', label: t('transfers.kind.internal') },
            { value: 'external', label: t('transfers.kind.external') },
          ]}
          {...form.getInputProps('kind')}
        />
        {external ? (
          <>
            <Select
              label={t('transfers.toHospital')}
              description={t('transfers.toHospitalHint')}
              data={[
                ...(facilities.data?.results ?? []).map((h) => ({
                  value: h.id,
                  label: `${h.name} (${h.code})`,
                })),
                { value: OTHER, label: t('transfers.otherFacility') },
              ]}
              searchable
              {...form.getInputProps('to_hospital')}
            />
            {(v.to_hospital === OTHER || v.to_hospital === null) && (
              <TextInput
                label={t('transfers.facilityName')}
                withAsterisk
                {...form.getInputProps('facility_name')}
              />
            )}
          </>
        ) : (
          <>
            <Select
              label={t('transfers.toDepartment')}
              withAsterisk
              searchable
              data={(departments.data?.results ?? [])
                .filter((d) => d.is_active && receivesPatients(d.kind))
                .map((d) => ({ value: d.id, label: d.name }))}
              {...form.getInputProps('to_department')}
              onChange={(value) => {
                form.setFieldValue('to_department', value);
                form.setFieldValue('to_ward', null);
              }}
            />
            <Select
              label={t('transfers.toWard')}
              placeholder={t('transfers.anyWard')}
              clearable
              disabled={!v.to_department}
              data={(census.data?.wards ?? [])
                .filter((w) => w.department.id === v.to_department)
                .map((w) => ({
                  value: w.id,
                  label: `${w.name} · ${t('transfers.freeBeds', { count: w.beds.free })}`,
                }))}
              {...form.getInputProps('to_ward')}
            />
          </>
        )}
        <Textarea
          label={t('transfers.reason')}
          withAsterisk
          autosize
          minRows={2}
          {...form.getInputProps('reason')}
        />
        <Textarea
          label={t('transfers.summary')}
          withAsterisk={external}
          description={external ? t('transfers.summaryHint') : undefined}
          autosize
          minRows={external ? 4 : 2}
          maxRows={12}
          {...form.getInputProps('summary')}
        />
        <Textarea
          label={t('transfers.treatments')}
          autosize
          minRows={2}
          maxRows={8}
          {...form.getInputProps('treatments')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('transfers.send')}
          loading={request.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
