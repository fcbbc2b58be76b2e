/**
 * The triage of a visit: vital signs within the physiological bounds (shared), the chief complaint and
 * the level on the hospital's scale. The suggested level is computed live from the vitals (and, on SATS,
 * the TEWS and the discriminators) with the shared rules; choosing another level requires a reason.
 */
import { ZTriageCreate } from '@greensen/shared/contracts/triage';
import {
  SATS_DISCRIMINATORS,
  suggestTriageLevel,
  TARGET_MINUTES,
  TRIAGE_LEVELS,
  type TriageScale,
  VITAL_BOUNDS,
} from '@greensen/shared/domain/triage';
import {
  Alert,
  Button,
  Divider,
  Group,
  MultiSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBulb, IconHeartbeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api-client';
import { serverErrorsFromBody, useServerFieldErrors } from '../../field-errors';
import { toast } from '../../toast';
import { issueMessage } from '../../zod-form';
import { useCreateTriage } from '../api/create-triage';
import { LEVEL_COLORS, levelLabel, TriageLevelBadge, targetDelayLabel } from './TriageLevelBadge';
import {
  EMPTY_VITALS,
  hasAnyVital,
  unreadableVitals,
  VitalsFields,
  type VitalsFormValues,
  vitalsOf,
} from './VitalsFields';

export interface TriageFormValues extends VitalsFormValues {
  discriminators: string[];
  chief_complaint: string;
  level: string | null;
  override_reason: string;
  notes: string;
  [key: string]: unknown;
}

const EMPTY: TriageFormValues = {
  ...EMPTY_VITALS,
  discriminators: [],
  chief_complaint: '',
  level: null,
  override_reason: '',
  notes: '',
};

export function TriageForm({
  admissionId,
  scale,
  complaint = '',
  onDone,
  onCancel,
}: {
  admissionId: string;
  /** The admission's reason: the chief complaint starts from it, not retyped (issue 25). */
  complaint?: string;
  scale: TriageScale;
  onDone: (triageId: string) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('triage');
  const form = useForm<TriageFormValues>({ initialValues: { ...EMPTY, chief_complaint: complaint } });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateTriage();
  const [general, setGeneral] = useState<string | null>(null);

  const values = form.getValues();
  const vitals = vitalsOf(values);
  const discriminators = scale === 'SATS' ? values.discriminators : [];
  // No suggestion before there is something to suggest from (a level 5 shown on an empty form anchors the
  // nurse on the least urgent level), nor from a value the form could not read (issue 25).
  const unreadable = unreadableVitals(values);
  const suggestion =
    unreadable.length === 0 && (hasAnyVital(values) || discriminators.length > 0)
      ? suggestTriageLevel(scale, vitals, discriminators)
      : null;
  const chosen = values.level ?? suggestion?.level ?? null;
  const overridden = suggestion !== null && chosen !== null && chosen !== suggestion.level;
  const levels = TRIAGE_LEVELS[scale];

  async function submit() {
    setGeneral(null);
    const body = {
      admission: admissionId,
      vitals,
      chief_complaint: values.chief_complaint,
      discriminators,
      level: chosen,
      override_reason: overridden ? values.override_reason.trim() || null : null,
      notes: values.notes.trim() || null,
    };
    const errors: Record<string, string> = {};
    for (const key of unreadable)
      errors[key] = t(VITAL_BOUNDS[key].integer ? 'validation.wholeNumber' : 'validation.number');
    if (chosen === null) errors.level = t('validation.level_required');
    const parsed = ZTriageCreate.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'vitals' ? String(issue.path[1]) : String(issue.path[0]);
        if (!errors[field] && !(field === 'level' && chosen === null)) errors[field] = issueMessage(issue);
      }
    }
    if (overridden && !body.override_reason)
      errors.override_reason = t('validation.override_reason_required');
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    try {
      const triage = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('form.saved'),
        description: t('form.savedHint', { level: levelLabel(triage.level, t) }),
      });
      form.reset();
      onDone(triage.id);
    } catch (error) {
      if (isApiError(error) && error.status === 400) {
        // Vitals errors come back as `vitals.<field>`: shown under the field.
        const { fields, general: text } = serverErrorsFromBody(error.body);
        const errors: Record<string, string> = {};
        const extra: string[] = text ? [text] : [];
        for (const [key, message] of Object.entries(fields)) {
          const field = key.replace(/^vitals\./, '');
          if (Object.hasOwn(values, field)) errors[field] = message;
          else extra.push(message);
        }
        form.setErrors(errors);
        setGeneral(extra.length > 0 ? extra.join(' ') : null);
        return;
      }
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('form.failed')));
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
      <Stack gap="md">
        <Paper withBorder p="sm" radius="md" data-testid="triage-suggestion" aria-live="polite">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs">
              <IconBulb size={18} />
              <Text fw={600}>{t('form.suggested')}</Text>
              {suggestion ? (
                <>
                  <TriageLevelBadge level={suggestion.level} size="lg" />
                  <Text size="sm" c="dimmed">
                    {targetDelayLabel(TARGET_MINUTES[suggestion.level] ?? null, t)}
                  </Text>
                </>
              ) : (
                <Text size="sm" c={unreadable.length > 0 ? 'orange' : 'dimmed'} data-testid="no-suggestion">
                  {t(unreadable.length > 0 ? 'form.suggestionBlocked' : 'form.noSuggestion')}
                </Text>
              )}
            </Group>
            {suggestion?.scale === 'SATS' && (
              <Text size="sm" data-testid="tews">
                {t('form.tews', { score: suggestion.tews })}
                {!suggestion.tews_complete && ` (${t('form.tewsPartial')})`}
              </Text>
            )}
          </Group>
        </Paper>

        <Divider label={t('form.vitals')} labelPosition="left" />
        <VitalsFields form={form} showMobility={scale === 'SATS'} />
        {scale === 'SATS' && (
          <MultiSelect
            label={t('form.discriminators')}
            searchable
            clearable
            data={(['red', 'orange', 'yellow'] as const).map((colour) => ({
              group: t(`levels.${colour}`),
              items: SATS_DISCRIMINATORS[colour].map((code) => ({
                value: code,
                label: t(`discriminators.${code}`),
              })),
            }))}
            {...form.getInputProps('discriminators')}
          />
        )}

        <Divider label={t('form.assessment')} labelPosition="left" />
        <Textarea
          label={t('form.chief_complaint')}
          required
          withAsterisk
          autosize
          minRows={2}
          {...form.getInputProps('chief_complaint')}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('form.level', { scale: t(`scales.${scale}`) })}
          </Text>
          <Group gap={6} role="radiogroup" aria-label={t('form.levelLabel')}>
            {levels.map((level) => {
              const active = level === chosen;
              return (
                <UnstyledButton
                  key={level}
                  role="radio"
                  aria-checked={active}
                  aria-label={`${t('level')} ${levelLabel(level, t)}`}
                  onClick={() => form.setFieldValue('level', level === suggestion?.level ? null : level)}
                  style={{
                    borderRadius: 8,
                    outline: active ? `3px solid var(--mantine-color-${LEVEL_COLORS[level]}-6)` : undefined,
                    outlineOffset: 2,
                    opacity: active ? 1 : 0.75,
                  }}
                >
                  <TriageLevelBadge level={level} size="xl" />
                </UnstyledButton>
              );
            })}
          </Group>
          {overridden && (
            <Text size="sm" c="orange">
              {t('form.overrideNotice', { suggested: levelLabel(suggestion.level, t) })}
            </Text>
          )}
          {form.errors.level && (
            <Text size="sm" c="red" role="alert">
              {form.errors.level}
            </Text>
          )}
        </Stack>
        {overridden && (
          <Textarea
            label={t('form.override_reason')}
            required
            withAsterisk
            autosize
            minRows={2}
            {...form.getInputProps('override_reason')}
          />
        )}
        <Textarea label={t('form.notes')} autosize minRows={1} {...form.getInputProps('notes')} />
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('common:actions.cancel')}
            </Button>
          )}
          <Button type="submit" loading={create.isPending} leftSection={<IconHeartbeat size={16} />}>
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
