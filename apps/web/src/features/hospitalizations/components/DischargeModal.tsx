/**
 * The discharge of a stay: mode (home, against medical advice, transferred, deceased), discharge diagnoses
 * (ICD-10, required but for a death, prefilled from the stay's diagnoses), summary, treatments at discharge, follow-up date; a death records its date and time and its cause
 * (ICD-10) and has no follow-up. Validated with the contract's schema (ZDischargeCreate), then the server's
 * field errors are shown as returned. The bed then goes to cleaning and the stay is read-only.
 */
import {
  DISCHARGE_MODES,
  type DischargeMode,
  ZDischargeCreate,
} from '@greensen/shared/contracts/hospitalizations';
import { Alert, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateField, DateTimeField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useDischarge } from '../api/stays';
import { type IcdChoice, IcdField } from './IcdField';

interface DischargeValues {
  mode: DischargeMode;
  diagnoses: IcdChoice[];
  summary: string;
  treatments: string;
  follow_up_date: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone. */
  death_at: string;
  death_cause_icd_code: IcdChoice[];
  [key: string]: unknown;
}

/** A `datetime-local` value as an ISO instant ('' when empty or unreadable). */
export function localToIso(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** A dialog acting on one stay: its id and the patient's name for the title. */
export interface StayDialogProps {
  stay: string;
  patient: string;
  opened: boolean;
  onClose: () => void;
}

export function DischargeModal({
  stay,
  patient,
  opened,
  onClose,
  diagnoses = [],
}: StayDialogProps & {
  /** The stay's diagnoses (the consultation's, the provisional one): the discharge diagnoses start from them. */
  diagnoses?: IcdChoice[];
}) {
  const { t } = useTranslation('hospitalizations');
  const form = useForm<DischargeValues>({
    initialValues: {
      mode: 'home',
      diagnoses: diagnoses.slice(0, 10),
      summary: '',
      treatments: '',
      follow_up_date: '',
      death_at: '',
      death_cause_icd_code: [],
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('forms.failed'));
  const discharge = useDischarge(stay);
  const values = form.getValues();
  const deceased = values.mode === 'deceased';

  async function submit() {
    clear();
    const v = form.getValues();
    const dead = v.mode === 'deceased';
    const body = {
      mode: v.mode,
      diagnoses: v.diagnoses.map((d) => d.code),
      summary: v.summary,
      treatments: v.treatments.trim() || null,
      follow_up_date: dead ? null : v.follow_up_date || null,
      death_at: dead ? localToIso(v.death_at) || null : null,
      death_cause_icd_code: dead ? (v.death_cause_icd_code[0]?.code ?? null) : null,
    };
    const parsed = validateWith(ZDischargeCreate, body, form, (path) => path.split('.')[0] ?? path);
    if (!parsed) return;
    try {
      await discharge.mutateAsync(parsed);
      toast({ kind: 'success', title: t('discharge.done'), description: patient });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t('discharge.title', { patient })}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid="discharge-form">
        <Select
          label={t('discharge.mode')}
          withAsterisk
          allowDeselect={false}
          data={DISCHARGE_MODES.map((value) => ({ value, label: t(`discharge.modes.${value}`) }))}
          {...form.getInputProps('mode')}
        />
        {deceased && (
          <Alert color="dark" icon={<IconAlertTriangle size={18} />}>
            {t('discharge.deathHint')}
          </Alert>
        )}
        {deceased && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DateTimeField label={t('discharge.deathAt')} withAsterisk {...form.getInputProps('death_at')} />
            <IcdField
              label={t('discharge.deathCause')}
              withAsterisk
              value={values.death_cause_icd_code}
              onChange={(value) => form.setFieldValue('death_cause_icd_code', value)}
              error={form.errors.death_cause_icd_code as string | undefined}
            />
          </SimpleGrid>
        )}
        <IcdField
          label={t('discharge.diagnoses')}
          withAsterisk={!deceased}
          max={10}
          value={values.diagnoses}
          onChange={(value) => form.setFieldValue('diagnoses', value)}
          error={form.errors.diagnoses as string | undefined}
        />
        <Textarea
          label={t('discharge.summary')}
          withAsterisk
          autosize
          minRows={3}
          maxRows={10}
          {...form.getInputProps('summary')}
        />
        <Textarea
          label={t('discharge.treatments')}
          autosize
          minRows={2}
          maxRows={8}
          {...form.getInputProps('treatments')}
        />
        {!deceased && (
          <DateField
            label={t('discharge.followUp')}
            description={t('discharge.followUpHint')}
            {...form.getInputProps('follow_up_date')}
          />
        )}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('discharge.confirm')}
          color={deceased ? 'dark' : undefined}
          loading={discharge.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
