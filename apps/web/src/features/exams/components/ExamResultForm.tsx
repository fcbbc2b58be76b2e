/**
 * Result entry, generated from the exam's fields: numbers with their unit and the patient's reference range,
 * choices from the list, texts, and the report (required for imaging). Each value shows its flag as it is
 * typed (the same shared rule the server applies; the server computes the stored flags). Checked with the
 * shared validation before sending; the server's field errors (`results.<key>`, `report`) shown as returned.
 */
import type { TExamField, TExamOrderDetail } from '@greensen/shared/contracts/exams';
import {
  DEFAULT_NUMBER_BOUNDS,
  type ExamValue,
  type ExamValueIssue,
  flagOf,
  referenceRange,
  referenceText,
  validateExamValues,
} from '@greensen/shared/domain/exams';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { ExamFlagBadge } from '../../../lib/clinical/components/ExamBadges';
import { localized, referenceLabel } from '../../../lib/clinical/components/exam-format';
import { ClinicalNumberInput, clinicalNumberOf } from '../../../lib/clinical-number-input';
import { serverErrorsFromBody } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useEnterResults } from '../api/enter-results';

/**
 * What the form holds per field: the text for texts, the value for choices; for numbers what the clinical number
 * field gives (decision 0056: the number, null when empty, NaN for a refused text) or a text (a test, a draft).
 */
export type Draft = Record<string, string | number | null>;

export function draftOf(order: Pick<TExamOrderDetail, 'fields' | 'results'>): Draft {
  const draft: Draft = {};
  for (const field of order.fields) {
    const value = order.results?.[field.key]?.value;
    draft[field.key] =
      value === null || value === undefined
        ? field.type === 'number'
          ? null
          : ''
        : (value as string | number);
  }
  return draft;
}

/** The values to send: numbers read (`12,5` → 12.5; a refused text, NaN or words, kept for the validation to refuse). */
export function valuesOf(fields: readonly TExamField[], draft: Draft): Record<string, ExamValue> {
  const values: Record<string, ExamValue> = {};
  for (const field of fields) {
    const held = draft[field.key] ?? null;
    const raw = typeof held === 'string' ? held.trim() : held;
    if (raw === null || raw === '') values[field.key] = null;
    else if (field.type === 'number') {
      const n = clinicalNumberOf(raw);
      values[field.key] = n !== null && Number.isFinite(n) ? n : typeof raw === 'string' ? raw : Number.NaN;
    } else values[field.key] = String(raw);
  }
  return values;
}

export function ExamResultForm({
  order,
  onSaved,
}: {
  order: TExamOrderDetail;
  onSaved?: (order: TExamOrderDetail) => void;
}) {
  const { t } = useTranslation('exams');
  const lang = uiLanguage();
  const save = useEnterResults();
  const [draft, setDraft] = useState<Draft>(() => draftOf(order));
  const [report, setReport] = useState(order.report ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const patient = { sex: order.patient.sex, age: order.reference_age };
  const imaging = order.exam.kind === 'imaging';

  const message = (issue: ExamValueIssue) => t(`validation.${issue.code}`, { ...(issue.params ?? {}) });

  function set(key: string, value: string | number | null) {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      if (!current[`results.${key}`]) return current;
      const { [`results.${key}`]: _removed, ...rest } = current;
      return rest;
    });
  }

  async function submit() {
    setGeneral(null);
    const values = valuesOf(order.fields, draft);
    const { issues } = validateExamValues(order.exam.kind, order.fields, values, report);
    if (issues.length > 0) {
      const next: Record<string, string> = {};
      for (const issue of issues) if (!next[issue.path]) next[issue.path] = message(issue);
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({
        id: order.id,
        body: { results: values, report: report.trim() || null, version: order.version },
      });
      toast({ kind: 'success', title: t('results.saved'), description: saved.order_number });
      onSaved?.(saved);
    } catch (error) {
      if (!isApiError(error)) {
        setGeneral(t('results.saveFailed'));
        return;
      }
      if (error.status === 400) {
        const { fields, general: text } = serverErrorsFromBody(error.body);
        setErrors(fields);
        setGeneral(text);
      } else if (error.status !== 403 && error.status !== 404) {
        setGeneral(error.message);
      }
    }
  }

  function fieldInput(field: TExamField) {
    const error = errors[`results.${field.key}`];
    const label = field.unit ? `${localized(field, lang)} (${field.unit})` : localized(field, lang);
    if (field.type === 'choice') {
      const value = (draft[field.key] as string | null) || null;
      const flag = value ? flagOf(field, value, patient) : null;
      return (
        <Select
          key={field.key}
          label={label}
          withAsterisk={!field.optional}
          clearable={Boolean(field.optional)}
          data={(field.choices ?? []).map((c) => ({ value: c.value, label: localized(c, lang) }))}
          value={value}
          onChange={(v) => set(field.key, v ?? '')}
          error={error}
          description={flag ? <ExamFlagBadge flag={flag} /> : undefined}
          data-testid={`result-${field.key}`}
        />
      );
    }
    if (field.type === 'text') {
      return (
        <TextInput
          key={field.key}
          label={label}
          withAsterisk={!field.optional}
          value={(draft[field.key] as string | null) ?? ''}
          onChange={(event) => set(field.key, event.currentTarget.value)}
          error={error}
          data-testid={`result-${field.key}`}
        />
      );
    }
    const held = draft[field.key] ?? null;
    const parsed = clinicalNumberOf(held);
    const flag = parsed === null || !Number.isFinite(parsed) ? null : flagOf(field, parsed, patient);
    const reference = referenceLabel(referenceText(referenceRange(field, patient)), t, lang);
    return (
      <ClinicalNumberInput
        key={field.key}
        label={label}
        withAsterisk={!field.optional}
        min={field.min ?? DEFAULT_NUMBER_BOUNDS.min}
        max={field.max ?? DEFAULT_NUMBER_BOUNDS.max}
        decimals={field.decimals ?? 2}
        value={held}
        onChange={(value) => set(field.key, value)}
        error={error}
        description={
          <>
            {reference ? t('results.reference', { range: reference }) : t('results.noReference')}{' '}
            <ExamFlagBadge flag={flag} />
          </>
        }
        styles={flag ? { input: { borderColor: 'var(--mantine-color-red-6)', fontWeight: 700 } } : undefined}
        data-testid={`result-${field.key}`}
      />
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="exam-result-form"
    >
      <Stack gap="md">
        {order.fields.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="sm">
            {order.fields.map(fieldInput)}
          </SimpleGrid>
        )}
        <Textarea
          label={imaging ? t('fields.report') : t('fields.comment')}
          withAsterisk={imaging}
          autosize
          minRows={imaging ? 5 : 2}
          maxRows={16}
          value={report}
          onChange={(event) => {
            setReport(event.currentTarget.value);
            setErrors((current) => {
              const { report: _removed, ...rest } = current;
              return rest;
            });
          }}
          error={errors.report}
          data-testid="result-report"
        />
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={16} />}>
            {order.status === 'completed' ? t('results.correct') : t('results.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
