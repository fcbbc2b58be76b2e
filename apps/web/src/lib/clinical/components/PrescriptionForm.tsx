/**
 * The prescribing form (issue 18), from a consultation or a stay: lines of medicine → presentation → dose, unit,
 * route, structured frequency, duration, quantity (computed by the server, editable) and instructions; the
 * patient's weight and notes. As the prescriber types, the lines go (debounced) to the safety check, whose
 * warnings show on their line: an allergy is red and blocks signing until a reason is written on the line; the
 * same substance twice is orange; a paediatric dose asks for the weight. "Enregistrer le brouillon" creates or
 * updates the draft (with its version: a 409 reloads it and says so); "Signer" saves then signs (a 409 names
 * the warnings still without a reason).
 */
import {
  type TPrescription,
  type TPrescriptionWarning,
  ZPrescriptionCreate,
  ZPrescriptionSignConflict,
  ZPrescriptionUpdate,
} from '@greensen/shared/contracts/pharmacy';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceFloppy, IconRefresh, IconSignature } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../../stores/auth';
import { isApiError } from '../../api-client';
import { ClinicalNumberInput } from '../../clinical-number-input';
import { useFormFailure } from '../../field-errors';
import { validateWith } from '../../zod-form';
import {
  checkPrescription,
  PRESCRIPTIONS_KEY,
  prescriptionQueryOptions,
  useCreatePrescription,
  useSignPrescription,
  useUpdatePrescription,
} from '../api/prescriptions';
import { AddLineButton } from './AddLineButton';
import type { PatientRefLike } from './PatientBanner';
import { PrescriptionWarningAlert } from './PrescriptionBadges';
import { PrescriptionLineFields } from './PrescriptionLineFields';
import {
  checkableLines,
  emptyLine,
  lineFromPrescription,
  lineInput,
  numberOrNull,
  OVERRIDE_MIN,
  type PrescriptionValues,
} from './prescription-lines';

function valuesOf(draft: TPrescription | null | undefined): PrescriptionValues {
  return {
    weight_kg: draft?.weight_kg ?? '',
    notes: draft?.notes ?? '',
    lines: draft ? draft.lines.map(lineFromPrescription) : [emptyLine()],
  };
}

/** A zod issue path → the form field that shows it (a frequency's number shows on the frequency). */
function fieldOf(path: string): string {
  return path.replace(/^(lines\.\d+\.frequency)\..*$/, '$1');
}

/** The warnings that still stop signing: blocking ones on a line without a reason, a weight not given. */
export function unresolvedWarnings(
  warnings: readonly TPrescriptionWarning[],
  values: Pick<PrescriptionValues, 'lines' | 'weight_kg'>,
): TPrescriptionWarning[] {
  return warnings.filter((warning) => {
    if (warning.kind === 'weight_required') return numberOrNull(values.weight_kg) === null;
    if (!warning.blocking) return false;
    if (warning.line === null) return true;
    const reason = values.lines[warning.line]?.allergy_override_reason.trim() ?? '';
    return reason.length < OVERRIDE_MIN;
  });
}

export interface PrescriptionFormProps {
  patient: PatientRefLike;
  consultationId?: string | null;
  hospitalizationId?: string | null;
  /** A draft to go on with (the form creates one otherwise). */
  draft?: TPrescription | null;
  onCancel: () => void;
  /** After "Signer" (signed) or "Enregistrer le brouillon" (not signed). */
  onDone: (prescription: TPrescription, signed: boolean) => void;
}

export function PrescriptionForm({
  patient,
  consultationId,
  hospitalizationId,
  draft,
  onCancel,
  onDone,
}: PrescriptionFormProps) {
  const { t } = useTranslation('pharmacy');
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const form = useForm<PrescriptionValues>({ initialValues: valuesOf(draft) });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const [current, setCurrent] = useState<TPrescription | null>(draft ?? null);
  const [reloaded, setReloaded] = useState(false);
  const [conflict, setConflict] = useState<TPrescriptionWarning[]>([]);
  const create = useCreatePrescription();
  const update = useUpdatePrescription();
  const sign = useSignPrescription();
  const values = form.getValues();

  // The safety check of the complete lines, debounced; its answer carries the form index of each line.
  const checkable = checkableLines(values.lines);
  const weight = numberOrNull(values.weight_kg);
  const [request] = useDebouncedValue(
    JSON.stringify({
      body: {
        patient: patient.id,
        weight_kg: weight && weight > 0 ? weight : null,
        lines: checkable.lines,
        prescription: current?.id ?? null,
      },
      formIndex: checkable.formIndex,
    }),
    500,
  );
  const check = useQuery({
    queryKey: [...PRESCRIPTIONS_KEY, hospitalId, 'check', request] as const,
    queryFn: async ({ signal }) => {
      const { body, formIndex } = JSON.parse(request) as {
        body: Parameters<typeof checkPrescription>[0];
        formIndex: number[];
      };
      const result = await checkPrescription(body, signal);
      return { result, formIndex };
    },
    enabled: checkable.lines.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const checked = checkable.lines.length > 0 ? check.data : undefined;
  const warnings: TPrescriptionWarning[] = [
    ...(checked?.result.warnings ?? []).map((w) => ({
      ...w,
      line: w.line === null ? null : (checked?.formIndex[w.line] ?? null),
    })),
    // A refusal to sign names warnings the last check may not have had (the server's word wins).
    ...conflict.filter((c) => !checked?.result.warnings.some((w) => w.kind === c.kind && w.line === c.line)),
  ];
  const computed: (number | null)[] = values.lines.map(() => null);
  checked?.formIndex.forEach((formIndex, j) => {
    computed[formIndex] = checked.result.quantities[j] ?? null;
  });
  const unresolved = unresolvedWarnings(warnings, values);
  const weightWarning = warnings.find((w) => w.kind === 'weight_required');
  const vitalsWeight = checked?.result.weight_kg ?? null;
  const busy = create.isPending || update.isPending || sign.isPending;

  /** Puts the server's current version of the draft back in the form. */
  async function reload(id: string) {
    const fresh = await queryClient.fetchQuery({ ...prescriptionQueryOptions(hospitalId, id), staleTime: 0 });
    setCurrent(fresh);
    form.setValues(valuesOf(fresh));
    form.resetDirty();
    setConflict([]);
    setReloaded(true);
  }

  async function save(): Promise<TPrescription | null> {
    clear();
    setReloaded(false);
    const v = form.getValues();
    const common = {
      weight_kg: numberOrNull(v.weight_kg),
      notes: v.notes.trim() || null,
      lines: v.lines.map(lineInput),
    };
    if (!current) {
      const body = validateWith(
        ZPrescriptionCreate,
        {
          patient: patient.id,
          consultation: consultationId ?? null,
          hospitalization: hospitalizationId ?? null,
          ...common,
        },
        form,
        fieldOf,
      );
      if (!body) return null;
      const saved = await create.mutateAsync(body);
      setCurrent(saved);
      return saved;
    }
    const body = validateWith(ZPrescriptionUpdate, { version: current.version, ...common }, form, fieldOf);
    if (!body) return null;
    const saved = await update.mutateAsync({ id: current.id, body });
    setCurrent(saved);
    return saved;
  }

  async function run(signing: boolean) {
    let saved: TPrescription | null = null;
    try {
      saved = await save();
      if (!saved) return;
      if (!signing) {
        onDone(saved, false);
        return;
      }
      const signed = await sign.mutateAsync({ id: saved.id, version: saved.version });
      setConflict([]);
      onDone(signed, true);
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        const refusal = ZPrescriptionSignConflict.safeParse(error.body);
        if (saved && refusal.success && refusal.data.warnings.length > 0) {
          setConflict(refusal.data.warnings);
          return;
        }
        const id = saved?.id ?? current?.id;
        if (id) {
          await reload(id).catch(fail);
          return;
        }
      }
      fail(error);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(true);
      }}
    >
      <Stack gap="sm" data-testid="prescription-form">
        {reloaded && (
          <Alert color="yellow" icon={<IconRefresh size={18} />} role="alert">
            {t('form.reloaded')}
          </Alert>
        )}
        {warnings
          .filter((w) => w.line === null && w.kind !== 'weight_required')
          .map((w) => (
            <PrescriptionWarningAlert key={`${w.kind}-${w.message}`} warning={w} />
          ))}
        <Group gap="sm" align="flex-start" wrap="wrap">
          <ClinicalNumberInput
            label={t('form.weight')}
            w={180}
            min={0.2}
            max={300}
            decimals={2}
            unit="kg"
            description={
              vitalsWeight !== null && numberOrNull(values.weight_kg) === null
                ? t('form.weightFromVitals', { weight: vitalsWeight })
                : undefined
            }
            {...form.getInputProps('weight_kg')}
            error={
              form.errors.weight_kg ??
              (weightWarning && numberOrNull(values.weight_kg) === null ? weightWarning.message : undefined)
            }
          />
          <Textarea
            label={t('form.notes')}
            style={{ flex: 1, minWidth: 220 }}
            autosize
            minRows={1}
            {...form.getInputProps('notes')}
          />
        </Group>

        {values.lines.map((line, index) => (
          <PrescriptionLineFields
            key={line.key}
            form={form}
            index={index}
            patientAge={patient.age}
            computedQuantity={computed[index] ?? null}
            warnings={warnings.filter((w) => w.line === index)}
            onRemove={values.lines.length > 1 ? () => form.removeListItem('lines', index) : undefined}
          />
        ))}
        <AddLineButton
          onAdd={() => form.insertListItem('lines', emptyLine())}
          count={values.lines.length}
          max={30}
        />

        {unresolved.length > 0 && (
          <Text size="sm" c="red" fw={600} role="status" data-testid="sign-blocked">
            {t('form.signBlocked', { count: unresolved.length })}
          </Text>
        )}
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={(create.isPending || update.isPending) && !sign.isPending}
            disabled={busy}
            onClick={() => void run(false)}
          >
            {t('form.saveDraft')}
          </Button>
          <Button
            type="submit"
            leftSection={<IconSignature size={16} />}
            loading={busy}
            disabled={unresolved.length > 0}
          >
            {t('form.sign')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
