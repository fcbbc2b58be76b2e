/**
 * "Facturer une visite": billing staff pick a patient, then one of their visits; the server assembles the visit's
 * draft invoice from what was performed (consultations, validated exams, dispensed medicines, manual acts) with the
 * patient's current coverage, or refreshes the existing draft. The invoice opens: the assembly answers the draft's
 * summary (decision 0049), its page reads the lines and the acts that could not be priced.
 */
import { ZInvoiceAssemble } from '@greensen/shared/contracts/billing';
import { Select, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { useFormFailure } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { validateWith } from '../../../lib/zod-form';
import { useInvoiceVisits } from '../api/invoice-visits';
import { type AssembledState, useAssembleInvoice } from '../api/invoices';

interface Values extends Record<string, unknown> {
  patient: string;
  admission: string | null;
  no_coverage: boolean;
}

export function AssembleModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const form = useForm<Values>({ initialValues: { patient: '', admission: null, no_coverage: false } });
  const { general, clear, fail } = useFormFailure(form, t('assemble.failed'));
  const patient = form.getValues().patient;
  // The cash desk's own read of the visits (decision 0088): the pure cashier may not list admissions.
  const visits = useInvoiceVisits({ patient, page: 1, pageSize: 20 });
  const noVisit = patient !== '' && visits.isSuccess && visits.data.results.length === 0;
  const assemble = useAssembleInvoice();

  async function submit() {
    clear();
    const v = form.getValues();
    if (!v.patient) {
      form.setFieldError('patient', t('assemble.patientRequired'));
      return;
    }
    const body = validateWith(
      ZInvoiceAssemble,
      { admission: v.admission, no_coverage: v.no_coverage || undefined },
      form,
    );
    if (!body) return;
    try {
      const invoice = await assemble.mutateAsync(body);
      onClose();
      // What could not be priced travels with the navigation: a medicine with no act in the catalogue is known
      // only at the assembly (it is not a performed act the invoice's read finds again).
      const state: AssembledState = { assembled: { id: invoice.id, unpriced: invoice.unpriced } };
      navigate(to(`/billing/invoices/${invoice.id}`), { state });
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('assemble.title')} onSubmit={() => void submit()}>
      <Stack gap="sm">
        <PatientPicker
          label={t('invoices.patient')}
          required
          nothingFound={t('invoices.noPatient')}
          value={form.getValues().patient}
          error={form.errors.patient}
          onChange={(id) => {
            form.setFieldValue('patient', id);
            form.setFieldValue('admission', null);
          }}
        />
        <Select
          label={t('assemble.visit')}
          required
          disabled={!patient}
          placeholder={visits.isFetching ? t('common:states.loading') : undefined}
          nothingFoundMessage={t('assemble.noVisit')}
          description={noVisit ? t('assemble.noVisit') : undefined}
          data={(visits.data?.results ?? []).map((visit) => ({
            value: visit.id,
            label: [
              formatDateTime(visit.admitted_at),
              visit.department,
              t(`admissions:status.${visit.status}`),
              ...(visit.invoice ? [t(`assemble.invoiced.${visit.invoice.status}`)] : []),
            ].join(' · '),
          }))}
          {...form.getInputProps('admission')}
          error={visits.isError ? t('assemble.visitsFailed') : form.errors.admission}
        />
        <Switch
          label={t('assemble.noCoverage')}
          {...form.getInputProps('no_coverage', { type: 'checkbox' })}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('assemble.submit')}
          loading={assemble.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
