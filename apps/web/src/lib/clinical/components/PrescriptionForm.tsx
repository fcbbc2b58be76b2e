/**
 * The prescribing form (issue 18), from a consultation or a stay: lines of medicine → presentation → dose, unit,
 * route, structured frequency, duration, quantity (computed by the server, editable) and instructions; the
 * patient's weight and notes. As the prescriber types, the lines go (debounced) to the safety check, whose
 * warnings show on their line: an allergy is red and blocks signing until a reason is written on the line; the
 * same substance twice is orange; a paediatric dose asks for the weight. "Enregistrer le brouillon" creates or
 * updates the draft (with its version: a 409 reloads it and says so); "Signer" saves then signs (a 409 names
 * the warnings still without a reason).
 *
 * Medication safety (issue 34): the alerts are the server's medication-safety check (allergies of every source,
 * doses, duplicates by class, interactions, pregnancy), each with its severity, on its line or for the whole
 * prescription; every blocking alert asks its own written reason, sent with the signature as an override (an
 * allergy's reason also stays on its line for the pharmacist). The weight the dose rules used shows with its date
 * and can be corrected. The old check still gives the computed quantities and the stock warnings.
 */
import type { SafetyAlertCode, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import {
  type TPrescription,
  type TPrescriptionWarning,
  ZPrescriptionCreate,
  ZPrescriptionSignConflict,
  ZPrescriptionUpdate,
} from '@greensen/shared/contracts/pharmacy';
import { formatClinicalNumber } from '@greensen/shared/domain/clinical-number';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceFloppy, IconRefresh, IconScale, IconSignature } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../../stores/auth';
import { isApiError } from '../../api-client';
import { ClinicalNumberInput } from '../../clinical-number-input';
import { useFormFailure } from '../../field-errors';
import { formatDate } from '../../format';
import { validateWith } from '../../zod-form';
import { checkMedicationSafety, SAFETY_CHECK_KEY, safetyConflictAlerts } from '../api/medication-safety';
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
  type PrescriptionValues,
} from './prescription-lines';
import {
  alertKey,
  asksReason,
  mergeAlerts,
  missingReasons,
  overridesOf,
  reasonOk,
  SafetyAlertList,
} from './SafetyAlerts';

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

/** The old check's warnings the safety alerts do not say again: the stock's. */
const STOCK_WARNINGS: readonly string[] = ['out_of_stock', 'expired_only'];
/** The allergy alerts: their reason also goes on the line (the pharmacist's view of issue 18). */
const ALLERGY_CODES: readonly SafetyAlertCode[] = ['allergy', 'allergy_class', 'allergy_cross_reactivity'];

/** The alert of a draft named by its form line (index), never by a stored line: the reasons are keyed so. */
const byFormLine = (alert: TSafetyAlert, line: number | null): TSafetyAlert => ({
  ...alert,
  line,
  prescription_line: null,
});

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
  const { t, i18n } = useTranslation('pharmacy');
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const form = useForm<PrescriptionValues>({ initialValues: valuesOf(draft) });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const [current, setCurrent] = useState<TPrescription | null>(draft ?? null);
  const [reloaded, setReloaded] = useState(false);
  const [conflict, setConflict] = useState<TPrescriptionWarning[]>([]);
  // The written reasons of the blocking alerts (by alert key), and the alerts a refusal to sign added.
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [refused, setRefused] = useState<TSafetyAlert[]>([]);
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
  // The medication-safety check of the same lines (issue 34): the alerts, the weight used, the allergies.
  const safetyCheck = useQuery({
    queryKey: [...SAFETY_CHECK_KEY, hospitalId, request, consultationId, hospitalizationId] as const,
    queryFn: async ({ signal }) => {
      const { body, formIndex } = JSON.parse(request) as {
        body: Parameters<typeof checkPrescription>[0];
        formIndex: number[];
      };
      const result = await checkMedicationSafety(
        {
          patient: body.patient,
          consultation: consultationId ?? null,
          hospitalization: hospitalizationId ?? null,
          prescription: body.prescription ?? null,
          weight_kg: body.weight_kg ?? null,
          lines: body.lines.map((l) => ({
            presentation: l.presentation,
            dose: l.dose,
            dose_unit: l.dose_unit,
            route: l.route,
            frequency: l.frequency,
            duration_days: l.duration_days ?? null,
          })),
        },
        signal,
      );
      return { result, formIndex };
    },
    enabled: checkable.lines.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const checked = checkable.lines.length > 0 ? check.data : undefined;
  const safe = checkable.lines.length > 0 ? safetyCheck.data : undefined;
  const alerts = mergeAlerts(
    (safe?.result.alerts ?? []).map((a) =>
      byFormLine(a, a.line === null ? null : (safe?.formIndex[a.line] ?? null)),
    ),
    refused,
  );
  const warnings: TPrescriptionWarning[] = [
    ...(checked?.result.warnings ?? []).map((w) => ({
      ...w,
      line: w.line === null ? null : (checked?.formIndex[w.line] ?? null),
    })),
    // A refusal to sign names warnings the last check may not have had (the server's word wins).
    ...conflict.filter((c) => !checked?.result.warnings.some((w) => w.kind === c.kind && w.line === c.line)),
  ].filter((w) => STOCK_WARNINGS.includes(w.kind));
  const computed: (number | null)[] = values.lines.map(() => null);
  checked?.formIndex.forEach((formIndex, j) => {
    computed[formIndex] = checked.result.quantities[j] ?? null;
  });
  const unresolved = missingReasons(alerts, reasons, asksReason);
  const weightNeeded = alerts.some((a) => a.code === 'weight_required');
  const usedWeight = safe?.result.weight ?? null;
  const setReason = (key: string, reason: string) => setReasons((all) => ({ ...all, [key]: reason }));

  /** A line's allergy reason (kept on the line for the pharmacist), or what the line had. */
  function allergyReason(index: number, line: PrescriptionValues['lines'][number]): string | null {
    const alert = alerts.find((a) => a.line === index && ALLERGY_CODES.includes(a.code));
    const reason = alert ? reasons[alertKey(alert)] : undefined;
    if (reasonOk(reason)) return (reason ?? '').trim();
    return line.allergy_override_reason.trim() || null;
  }
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
      lines: v.lines.map((line, index) => ({
        ...lineInput(line),
        allergy_override_reason: allergyReason(index, line),
      })),
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
      const overrides = overridesOf(alerts, reasons, asksReason, (a) => a.line);
      const signed = await sign.mutateAsync({
        id: saved.id,
        version: saved.version,
        overrides: overrides.length > 0 ? overrides : undefined,
      });
      setConflict([]);
      onDone(signed, true);
    } catch (error) {
      const safetyRefusal = safetyConflictAlerts(error);
      if (safetyRefusal) {
        // The stored lines are the form's, in order: the refusal's alerts go back on their form line.
        const lines = saved?.lines ?? [];
        setRefused((known) =>
          mergeAlerts(
            known,
            safetyRefusal.map((a) => {
              const index = lines.findIndex((l) => l.id === a.prescription_line);
              return byFormLine(a, index >= 0 ? index : a.line);
            }),
          ),
        );
        return;
      }
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
        {refused.length > 0 && (
          <Alert color="red" role="alert" data-testid="sign-refused">
            {t('safety:refused')}
          </Alert>
        )}
        <SafetyAlertList
          alerts={alerts.filter((a) => a.line === null)}
          reasons={reasons}
          onReason={setReason}
          asks={asksReason}
        />
        {warnings
          .filter((w) => w.line === null)
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
            {...form.getInputProps('weight_kg')}
            error={
              form.errors.weight_kg ??
              (weightNeeded && numberOrNull(values.weight_kg) === null
                ? t('safety:weight.required')
                : undefined)
            }
          />
          {numberOrNull(values.weight_kg) === null && safe && (
            <Stack gap={2} pt={24} data-testid="weight-used">
              <Text size="sm">
                <IconScale size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
                {usedWeight
                  ? usedWeight.recorded_at
                    ? t('safety:weight.used', {
                        weight: formatClinicalNumber(usedWeight.kg, i18n.language),
                        date: formatDate(usedWeight.recorded_at),
                      })
                    : t('safety:weight.usedTyped', {
                        weight: formatClinicalNumber(usedWeight.kg, i18n.language),
                      })
                  : t('safety:weight.none')}
              </Text>
              {usedWeight && (
                <Button
                  variant="subtle"
                  size="compact-xs"
                  onClick={() => form.setFieldValue('weight_kg', usedWeight.kg)}
                >
                  {t('safety:weight.edit')}
                </Button>
              )}
            </Stack>
          )}
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
            alerts={alerts.filter((a) => a.line === index)}
            reasons={reasons}
            onReason={setReason}
            onRemove={
              values.lines.length > 1
                ? () => {
                    // The reasons and refusals are keyed by line index: they do not follow a moved line.
                    setReasons({});
                    setRefused([]);
                    form.removeListItem('lines', index);
                  }
                : undefined
            }
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
