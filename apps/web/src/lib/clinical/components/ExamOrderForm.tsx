/**
 * Ordering exams for a patient (from a consultation, or /exams/create): the patient (fixed, or a picker with
 * server search), several exams picked from the catalogue (searched in French, English or by code, grouped by
 * category), the urgency and the clinical information. Validated with the server's schema; the server's
 * errors are shown as returned.
 */
import { type TExamOrderDetail, ZExamOrderCreate } from '@greensen/shared/contracts/exams';
import { EXAM_KINDS, type ExamKind, type ExamUrgency } from '@greensen/shared/domain/exams';
import { Alert, Button, Group, MultiSelect, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt, IconFlask } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api-client';
import { useServerFieldErrors } from '../../field-errors';
import { uiLanguage } from '../../i18n';
import { toast } from '../../toast';
import { validateWith } from '../../zod-form';
import { useCreateExamOrders } from '../api/create-exam-orders';
import { useExamCatalogue } from '../api/exam-catalogue';
import { examName } from './exam-format';
import { type FixedPatient, PatientPicker } from './PatientPicker';

interface OrderFormValues {
  patient: string;
  exams: string[];
  urgency: ExamUrgency;
  clinical_info: string;
  [key: string]: unknown;
}

export function ExamOrderForm({
  patient,
  consultationId,
  onDone,
  onCancel,
}: {
  /** The patient when ordering from their record or consultation (no picker). */
  patient?: FixedPatient | null;
  consultationId?: string | null;
  onDone: (orders: TExamOrderDetail[]) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('exams');
  const lang = uiLanguage();
  const form = useForm<OrderFormValues>({
    initialValues: { patient: patient?.id ?? '', exams: [], urgency: 'routine', clinical_info: '' },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateExamOrders();
  const [general, setGeneral] = useState<string | null>(null);

  const [kind, setKind] = useState<ExamKind | 'all'>('all');
  const [examSearch, setExamSearch] = useState('');
  const [debouncedExam] = useDebouncedValue(examSearch, 250);
  const catalogue = useExamCatalogue({
    search: debouncedExam,
    kind: kind === 'all' ? null : kind,
    pageSize: 100,
  });
  /** Labels of the exams picked so far (they stay in the list whatever the search). */
  const [picked, setPicked] = useState<Record<string, { label: string; group: string }>>({});

  const examOptions = useMemo(() => {
    const groups = new Map<string, { value: string; label: string }[]>();
    const add = (value: string, label: string, group: string) => {
      const list = groups.get(group) ?? [];
      if (!list.some((o) => o.value === value)) list.push({ value, label });
      groups.set(group, list);
    };
    for (const exam of catalogue.data?.results ?? [])
      add(exam.code, `${examName(exam, lang)} (${exam.code})`, t(`category.${exam.category}`));
    for (const [value, p] of Object.entries(picked)) add(value, p.label, p.group);
    return [...groups.entries()].map(([group, items]) => ({ group, items }));
  }, [catalogue.data, picked, lang, t]);

  async function submit() {
    const values = form.getValues();
    const body = validateWith(
      ZExamOrderCreate,
      {
        patient: values.patient,
        consultation: consultationId ?? null,
        exams: values.exams,
        urgency: values.urgency,
        clinical_info: values.clinical_info.trim() || null,
      },
      form,
    );
    if (!body) return;
    setGeneral(null);
    try {
      const created = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('order.created', { count: created.orders.length }),
        description: created.orders.map((o) => o.order_number).join(', '),
      });
      form.reset();
      setPicked({});
      onDone(created.orders);
    } catch (error) {
      const message = applyServerErrors(error);
      if (isApiError(error) && (error.status === 403 || error.status === 404)) return;
      setGeneral(message ?? (isApiError(error) ? error.message : t('order.failed')));
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <PatientPicker
          fixed={patient}
          label={t('fields.patient')}
          placeholder={t('order.patientPlaceholder')}
          nothingFound={t('order.noPatient')}
          {...form.getInputProps('patient')}
          onChange={(id) => form.setFieldValue('patient', id)}
        />
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Text size="sm" fw={500}>
            {t('fields.exams')}
          </Text>
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(value) => setKind(value as ExamKind | 'all')}
            data={[
              { value: 'all', label: t('kind.all') },
              ...EXAM_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
            ]}
            aria-label={t('filters.kind')}
          />
        </Group>
        <MultiSelect
          aria-label={t('fields.exams')}
          placeholder={t('order.examsPlaceholder')}
          searchable
          clearable
          hidePickedOptions
          maxValues={20}
          searchValue={examSearch}
          onSearchChange={setExamSearch}
          filter={({ options }) => options}
          nothingFoundMessage={catalogue.isFetching ? t('common:states.loading') : t('order.noExam')}
          data={examOptions}
          maxDropdownHeight={320}
          data-testid="exam-picker"
          {...form.getInputProps('exams')}
          onChange={(values) => {
            form.setFieldValue('exams', values);
            setPicked((current) => {
              const next: Record<string, { label: string; group: string }> = {};
              for (const value of values) {
                const found =
                  current[value] ??
                  (() => {
                    const exam = catalogue.data?.results.find((e) => e.code === value);
                    return exam
                      ? {
                          label: `${examName(exam, lang)} (${exam.code})`,
                          group: t(`category.${exam.category}`),
                        }
                      : undefined;
                  })();
                if (found) next[value] = found;
              }
              return next;
            });
          }}
        />
        <SegmentedControl
          fullWidth
          value={form.getValues().urgency}
          onChange={(value) => form.setFieldValue('urgency', value as ExamUrgency)}
          data={[
            { value: 'routine', label: t('urgency.routine') },
            { value: 'urgent', label: t('urgency.urgent') },
          ]}
          color={form.getValues().urgency === 'urgent' ? 'red' : undefined}
          aria-label={t('fields.urgency')}
          data-testid="urgency-control"
        />
        <Textarea
          label={t('fields.clinical_info')}
          description={t('order.clinicalInfoHint')}
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('clinical_info')}
        />
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('common:actions.cancel')}
            </Button>
          )}
          <Button
            type="submit"
            loading={create.isPending}
            color={form.getValues().urgency === 'urgent' ? 'red' : undefined}
            leftSection={
              form.getValues().urgency === 'urgent' ? <IconBolt size={16} /> : <IconFlask size={16} />
            }
          >
            {t('order.submit', { count: Math.max(form.getValues().exams.length, 1) })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
