/**
 * The consultation form while it is in progress and the user may edit it: the sections (reason, anamnesis
 * with confirmed allergies, examination with the vital signs, diagnoses, conclusion and plan, outcome) saved
 * automatically as drafts (debounced, optimistic version). A conflict with another save reloads the record,
 * says so and offers to re-apply the changes that were not saved. "Terminer" saves what is pending and asks
 * for confirmation with what is still missing; "Annuler" takes a reason.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { ZConsultationCancel } from '@greensen/shared/contracts/consultations';
import {
  CONSULTATION_OUTCOMES,
  type CompletionProblem,
  completionProblems,
} from '@greensen/shared/domain/consultations';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconRefresh, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consultationQueryKey, consultationQueryOptions } from '../../../lib/clinical/api/get-consultation';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { VitalsFields, vitalsFormValues } from '../../../lib/clinical/components/VitalsFields';
import { DateField } from '../../../lib/date-field';
import { appendDictation, DictationButton } from '../../../lib/dictation/DictationButton';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth';
import { useCancelConsultation, useCompleteConsultation } from '../api/consultation-actions';
import { saveConsultationDraft, staleVersionOf } from '../api/save-draft';
import { AutosaveIndicator } from './AutosaveIndicator';
import { CompleteConsultationModal } from './CompleteConsultationModal';
import {
  type ConsultationFormValues,
  type DraftPatch,
  formValuesOf,
  patchBetween,
  patchErrors,
  patchFields,
  valuesFromPatch,
} from './consultation-form';
import { DiagnosesSummary } from './DiagnosesSummary';
import { TriageVitalsCard } from './TriageVitalsCard';
import { useAutosave } from './useAutosave';

/** The microphone sits at the top right of a long text field. */
const DICTATION_SECTION = { section: { alignItems: 'flex-start', paddingTop: 4 } } as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** Today in the browser's time zone (the hospital's, in practice), `YYYY-MM-DD`. */
const localToday = () => new Date().toLocaleDateString('en-CA');

export function ConsultationEditor({ record }: { record: TConsultationDetail }) {
  const { t, i18n } = useTranslation('consultations');
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const key = consultationQueryKey(hospitalId, record.id);
  const [conflict, setConflict] = useState<DraftPatch | null>(null);
  const [completing, setCompleting] = useState<CompletionProblem[] | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const complete = useCompleteConsultation(record.id);
  const cancel = useCancelConsultation(record.id);
  const resetting = useRef(false);
  const onChange = useRef<(values: ConsultationFormValues, previous: ConsultationFormValues) => void>(
    () => {},
  );

  const form = useForm<ConsultationFormValues>({
    initialValues: formValuesOf(record),
    onValuesChange: (values, previous) => onChange.current(values, previous),
  });
  /** The dictation button of a long text field: the corrected text is appended to the field. */
  const dictation = (field: 'history' | 'examination' | 'plan', label: string) => (
    <DictationButton
      label={label}
      onInsert={(text) =>
        form.setFieldValue(field, appendDictation(String(form.getValues()[field] ?? ''), text))
      }
    />
  );

  const autosave = useAutosave<DraftPatch, TConsultationDetail>({
    version: record.version,
    enabled: true,
    save: (patch, version) => saveConsultationDraft(record.id, { ...patch, version }),
    staleVersionOf,
    isValid: (patch) => {
      const errors = patchErrors(patch);
      for (const field of patchFields(patch)) form.clearFieldError(field);
      if (Object.keys(errors).length === 0) return true;
      form.setErrors({ ...form.errors, ...errors });
      return false;
    },
    onSaved: (saved) => queryClient.setQueryData(key, saved),
    onConflict: (lost) => {
      setConflict(lost);
      void reload();
    },
  });

  onChange.current = (values, previous) => {
    if (resetting.current) return;
    const patch = patchBetween(values, previous);
    if (Object.keys(patch).length > 0) autosave.change(patch);
  };

  /** Loads the saved record and starts again from it. */
  async function reload() {
    const fresh = await queryClient.fetchQuery({
      ...consultationQueryOptions(hospitalId, record.id),
      staleTime: 0,
    });
    resetting.current = true;
    form.setValues(formValuesOf(fresh));
    form.clearErrors();
    resetting.current = false;
    autosave.reset(fresh.version);
  }

  // Unsaved changes: warn before the browser leaves the page.
  const dirty = useRef(autosave.dirty);
  dirty.current = autosave.dirty;
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  function reapply() {
    if (!conflict) return;
    const values = valuesFromPatch(conflict);
    setConflict(null);
    form.setValues(values);
  }

  async function askCompletion() {
    const saved = await autosave.flush();
    if (!saved) {
      toast({ kind: 'warning', title: t('complete.unsaved'), description: t('complete.unsavedHint') });
      return;
    }
    const values = form.getValues();
    const current = queryClient.getQueryData<TConsultationDetail>(key) ?? record;
    setCompleting(
      completionProblems(
        {
          hasPrimaryDiagnosis: current.diagnoses.some((d) => d.rank === 'primary'),
          outcome: values.outcome,
          followUpDate: values.follow_up_date || null,
        },
        localToday(),
      ),
    );
  }

  async function confirmCompletion() {
    try {
      await complete.mutateAsync(autosave.version());
      setCompleting(null);
      toast({ kind: 'success', title: t('complete.done') });
    } catch (error) {
      if (staleVersionOf(error) !== null) {
        setCompleting(null);
        setConflict({});
        await reload();
        return;
      }
      throw error;
    }
  }

  const values = form.getValues();
  const outcomeOptions = CONSULTATION_OUTCOMES.map((value) => ({ value, label: t(`outcome.${value}`) }));

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" px="md" py="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <AutosaveIndicator
            status={autosave.status}
            savedAt={autosave.savedAt}
            updatedAt={record.updated_at}
            onRetry={() => void autosave.flush()}
          />
          <Group gap="xs">
            <Button
              variant="default"
              color="red"
              leftSection={<IconX size={16} />}
              onClick={() => setCancelling(true)}
            >
              {t('actions.cancel')}
            </Button>
            <Button leftSection={<IconCheck size={16} />} onClick={() => void askCompletion()}>
              {t('actions.complete')}
            </Button>
          </Group>
        </Group>
      </Paper>

      {conflict && (
        <Alert color="orange" title={t('conflict.title')} role="alert" data-testid="draft-conflict">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('conflict.message')}</Text>
            <Group gap="xs">
              {Object.keys(conflict).length > 0 && (
                <Button size="xs" leftSection={<IconRefresh size={14} />} onClick={reapply}>
                  {t('conflict.reapply')}
                </Button>
              )}
              <Button size="xs" variant="default" onClick={() => setConflict(null)}>
                {t('conflict.dismiss')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      <Section title={t('sections.reason')}>
        <Textarea
          label={t('fields.reason')}
          autosize
          minRows={1}
          maxRows={4}
          {...form.getInputProps('reason')}
        />
      </Section>

      <Section title={t('sections.anamnesis')}>
        <Textarea
          label={t('fields.history')}
          autosize
          minRows={3}
          maxRows={14}
          {...form.getInputProps('history')}
          rightSection={dictation('history', t('fields.history'))}
          rightSectionPointerEvents="all"
          styles={DICTATION_SECTION}
        />
        <Textarea
          label={t('fields.current_treatment')}
          autosize
          minRows={1}
          maxRows={8}
          {...form.getInputProps('current_treatment')}
        />
        <TagsInput
          label={t('fields.allergies')}
          description={t('fields.allergiesHint')}
          placeholder={values.allergies.length ? undefined : t('fields.allergiesPlaceholder')}
          clearable
          {...form.getInputProps('allergies')}
        />
        <Checkbox
          label={t('fields.allergies_confirmed')}
          description={t('fields.allergiesConfirmedHint')}
          {...form.getInputProps('allergies_confirmed', { type: 'checkbox' })}
        />
      </Section>

      <Section title={t('sections.examination')}>
        <Textarea
          label={t('fields.examination')}
          autosize
          minRows={3}
          maxRows={14}
          {...form.getInputProps('examination')}
          rightSection={dictation('examination', t('fields.examination'))}
          rightSectionPointerEvents="all"
          styles={DICTATION_SECTION}
        />
        <Text size="sm" fw={500}>
          {t('fields.vitals')}
        </Text>
        {record.triage && (
          <TriageVitalsCard
            triage={record.triage}
            onTakeOver={() => form.setValues({ ...vitalsFormValues(record.triage?.vitals, i18n.language) })}
          />
        )}
        <VitalsFields form={form} showMobility={false} showFlags={false} />
      </Section>

      <Section title={t('sections.diagnoses')}>
        <DiagnosesSummary consultationId={record.id} editable />
      </Section>

      <Section title={t('sections.conclusion')}>
        <Textarea
          label={t('fields.conclusion')}
          autosize
          minRows={2}
          maxRows={10}
          {...form.getInputProps('conclusion')}
        />
        <Textarea
          label={t('fields.plan')}
          autosize
          minRows={2}
          maxRows={10}
          {...form.getInputProps('plan')}
          rightSection={dictation('plan', t('fields.plan'))}
          rightSectionPointerEvents="all"
          styles={DICTATION_SECTION}
        />
      </Section>

      <Section title={t('sections.outcome')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('fields.outcome')}
            placeholder={t('fields.outcomePlaceholder')}
            data={outcomeOptions}
            clearable
            {...form.getInputProps('outcome')}
          />
          {values.outcome === 'follow_up' && (
            <DateField
              label={t('fields.follow_up_date')}
              min={localToday()}
              withAsterisk
              {...form.getInputProps('follow_up_date')}
            />
          )}
        </SimpleGrid>
        <Textarea
          label={t('fields.outcome_notes')}
          autosize
          minRows={1}
          maxRows={6}
          {...form.getInputProps('outcome_notes')}
        />
      </Section>

      <CompleteConsultationModal
        opened={completing !== null}
        problems={completing ?? []}
        record={queryClient.getQueryData<TConsultationDetail>(key) ?? record}
        outcome={values.outcome}
        allergies={values.allergies_confirmed ? values.allergies : null}
        pending={complete.isPending}
        onClose={() => setCompleting(null)}
        onConfirm={confirmCompletion}
      />
      <ReasonModal
        opened={cancelling}
        onClose={() => setCancelling(false)}
        title={t('cancel.title')}
        description={<Text size="sm">{t('cancel.explain')}</Text>}
        reasonLabel={t('cancel.reason')}
        closeLabel={t('common:actions.back')}
        confirmLabel={t('cancel.confirm')}
        color="red"
        schema={ZConsultationCancel}
        onConfirm={async (reason) => {
          await autosave.flush();
          return cancel.mutateAsync(reason);
        }}
        doneTitle={t('cancel.done')}
      />
    </Stack>
  );
}
