/**
 * The dispensing of a signed prescription (issue 18), from one of the user's pharmacies: per line still to
 * deliver, the quantity (by default what remains), the presentation (another presentation of the same medicine
 * is a substitution) and the lots it comes from — proposed first-expiry-first-out, changeable; expired lots are
 * never offered. Delivering less than what remains is a partial dispensing. A 409 (the stock ran out meanwhile)
 * is shown and the lots are fetched again.
 *
 * Medication safety (issue 34): every alert of the prescription as the server computes it now (an allergy
 * recorded since signing included), with the prescriber's overrides and reasons; a patient who has left is
 * flagged. A line under a blocking alert is never pre-ticked: the pharmacist ticks it only by writing their own
 * reason for each of its blocking alerts, or leaves it unticked (refused). A refusal of the server (409
 * `medication_safety`) adds the alerts it names and asks their reasons.
 */
import type { TPrescriptionWithSafety, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import type { TLot, TPrescriptionLine } from '@greensen/shared/contracts/pharmacy';
import { Alert, Badge, Checkbox, Group, NumberInput, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconDoorExit, IconPackageExport } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { safetyConflictAlerts } from '../../../lib/clinical/api/medication-safety';
import { useMedication } from '../../../lib/clinical/api/medications';
import {
  medicationName,
  presentationLabel,
  unitLabel,
} from '../../../lib/clinical/components/prescription-format';
import {
  asksReason,
  mergeAlerts,
  missingReasons,
  overridesOf,
  SafetyAlertList,
} from '../../../lib/clinical/components/SafetyAlerts';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth';
import { useDispense } from '../api/dispense';
import type { TPharmacy } from '../api/pharmacies';
import { lotsQueryOptions } from '../api/stock';
import { type Allocation, allocated, dispensableLots, fefoAllocation } from './fefo';
import { RefusalNote, RefuseDispense } from './RefuseDispense';

interface LineChoice {
  include: boolean;
  quantity: number | string;
  presentation: string;
  /** The lots chosen by hand; null follows first-expiry-first-out. */
  allocation: Allocation | null;
}

export const remainingOf = (line: TPrescriptionLine) => Math.max(0, line.quantity - line.dispensed_quantity);

/** The lines under a blocking alert: the server's list, and any line a blocking alert names. */
export function blockedLines(prescription: TPrescriptionWithSafety): Set<string> {
  const safety = prescription.safety;
  const ids = new Set(safety?.blocked_lines ?? []);
  for (const alert of safety?.alerts ?? [])
    if (alert.severity === 'blocking' && alert.prescription_line) ids.add(alert.prescription_line);
  return ids;
}

function initialChoices(
  lines: readonly TPrescriptionLine[],
  blocked: ReadonlySet<string>,
): Record<string, LineChoice> {
  return Object.fromEntries(
    lines.map((line) => [
      line.id,
      {
        // Never pre-ticked under a blocking alert: the pharmacist decides, with a reason.
        include: remainingOf(line) > 0 && !blocked.has(line.id) && !line.refusal,
        quantity: remainingOf(line),
        presentation: line.presentation.id,
        allocation: null,
      },
    ]),
  );
}

const quantityOf = (choice: LineChoice) => (typeof choice.quantity === 'number' ? choice.quantity : 0);

export function DispenseModal({
  prescription,
  pharmacies,
  opened,
  onClose,
}: {
  prescription: TPrescriptionWithSafety;
  /** The pharmacies the user may dispense from (their own). */
  pharmacies: readonly TPharmacy[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const [pharmacy, setPharmacy] = useState<string | null>(pharmacies[0]?.id ?? null);
  const [choices, setChoices] = useState(() =>
    initialChoices(prescription.lines, blockedLines(prescription)),
  );
  const [error, setError] = useState<string | null>(null);
  // The alerts of the prescription now (from the server), and those a refusal added.
  const [refused, setRefused] = useState<TSafetyAlert[]>([]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const safety = prescription.safety ?? null;
  const alerts = mergeAlerts(safety?.alerts ?? [], refused);
  const whole = alerts.filter((a) => a.prescription_line === null);

  const dispense = useDispense(prescription.id);
  // A line the pharmacy refused is no longer to dispense (issue 34): it is shown apart, with its refusal.
  const open = prescription.lines.filter((line) => remainingOf(line) > 0 && !line.refusal);
  const lotQueries = useQueries({
    queries: open.map((line) =>
      lotsQueryOptions(hospitalId, pharmacy, choices[line.id]?.presentation ?? line.presentation.id),
    ),
  });

  /** The usable lots of each open line and the split of its quantity (by hand, or FEFO). */
  const plan = open.map((line, index) => {
    const choice = choices[line.id] as LineChoice;
    const lots = dispensableLots(lotQueries[index]?.data?.results ?? []);
    const allocation = choice.allocation ?? fefoAllocation(lots, quantityOf(choice));
    return { line, choice, lots, allocation, query: lotQueries[index] };
  });

  const update = (id: string, change: Partial<LineChoice>) =>
    setChoices((all) => ({ ...all, [id]: { ...(all[id] as LineChoice), ...change } }));

  function problemOf(entry: (typeof plan)[number]): string | null {
    const quantity = quantityOf(entry.choice);
    if (quantity < 1) return t('dispense.quantityRequired');
    if (entry.choice.presentation === entry.line.presentation.id && quantity > remainingOf(entry.line))
      return t('dispense.tooMany', { count: remainingOf(entry.line) });
    const available = entry.lots.reduce((sum, lot) => sum + lot.on_hand, 0);
    if (quantity > available) return t('dispense.notEnough', { count: available });
    if (allocated(entry.allocation) !== quantity)
      return t('dispense.splitMismatch', { split: allocated(entry.allocation), count: quantity });
    return null;
  }

  async function submit() {
    setError(null);
    const chosen = plan.filter((entry) => entry.choice.include);
    if (!pharmacy) return setError(t('dispense.pharmacyRequired'));
    if (chosen.length === 0) return setError(t('dispense.nothing'));
    const problems = chosen.map(problemOf).filter(Boolean);
    if (problems.length > 0) return setError(t('dispense.fix'));
    // The alerts of what is dispensed: the whole prescription's and the ticked lines'.
    const ticked = new Set(chosen.map((entry) => entry.line.id));
    const concerned = alerts.filter((a) => a.prescription_line === null || ticked.has(a.prescription_line));
    if (missingReasons(concerned, reasons, asksReason).length > 0)
      return setError(t('dispense.reasonsMissing'));
    try {
      const overrides = overridesOf(concerned, reasons, asksReason, (a) => a.prescription_line);
      await dispense.mutateAsync({
        pharmacy,
        ...(overrides.length > 0 ? { overrides } : {}),
        lines: chosen.map(({ line, choice, allocation }) => ({
          line: line.id,
          quantity: quantityOf(choice),
          presentation: choice.presentation === line.presentation.id ? null : choice.presentation,
          lots: Object.entries(allocation)
            .filter(([, quantity]) => quantity > 0)
            .map(([lot, quantity]) => ({ lot, quantity })),
        })),
      });
      toast({ kind: 'success', title: t('dispense.done'), description: prescription.number });
      onClose();
    } catch (failure) {
      const conflict = safetyConflictAlerts(failure);
      if (conflict) {
        setRefused((known) => mergeAlerts(known, conflict));
        setError(t('safety:refused'));
      } else if (isApiError(failure) && failure.status === 409) {
        // The stock moved: the lots come again (the mutation refetches) and the split follows them.
        setChoices((all) =>
          Object.fromEntries(Object.entries(all).map(([id, c]) => [id, { ...c, allocation: null }])),
        );
        setError(failure.message);
      } else if (!isApiError(failure) || (failure.status !== 403 && failure.status !== 404)) {
        setError(isApiError(failure) ? failure.message : t('dispense.failed'));
      }
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t('dispense.title', { number: prescription.number })}
      size="xl"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid="dispense-form">
        <Select
          label={t('dispense.pharmacy')}
          withAsterisk
          allowDeselect={false}
          data={pharmacies.map((p) => ({ value: p.id, label: p.name }))}
          value={pharmacy}
          onChange={(value) => {
            setPharmacy(value);
            setChoices((all) =>
              Object.fromEntries(Object.entries(all).map(([id, c]) => [id, { ...c, allocation: null }])),
            );
          }}
        />
        {safety?.patient_left && (
          <Alert color="red" variant="light" icon={<IconDoorExit size={18} />} data-testid="patient-left">
            {t('dispense.patientLeft')}
          </Alert>
        )}
        {alerts.length === 0 && safety && (
          <Text size="sm" c="dimmed" data-testid="no-safety-alert">
            {t('dispense.noAlert')}
          </Text>
        )}
        <SafetyAlertList
          alerts={whole}
          reasons={reasons}
          onReason={(key, reason) => setReasons((all) => ({ ...all, [key]: reason }))}
          asks={asksReason}
        />
        {plan.map((entry) => (
          <DispenseLine
            key={entry.line.id}
            prescriptionId={prescription.id}
            alerts={alerts.filter((a) => a.prescription_line === entry.line.id)}
            reasons={reasons}
            onReason={(key, reason) => setReasons((all) => ({ ...all, [key]: reason }))}
            line={entry.line}
            choice={entry.choice}
            lots={entry.lots}
            allocation={entry.allocation}
            loading={Boolean(entry.query?.isPending && pharmacy)}
            problem={entry.choice.include ? problemOf(entry) : null}
            onChange={(change) => update(entry.line.id, change)}
          />
        ))}
        {prescription.lines
          .filter((line) => line.refusal)
          .map((line) => (
            <Paper key={line.id} withBorder radius="md" p="sm" data-testid="dispense-line-refused">
              <Text fw={700} size="sm" mb={4}>
                {medicationName(line.medication, uiLanguage())} — {presentationLabel(line.presentation)}
              </Text>
              <RefusalNote refusal={line.refusal!} />
            </Paper>
          ))}
        {open.length > 0 && (alerts.length > 0 || safety?.patient_left) && (
          <RefuseDispense prescriptionId={prescription.id} lines={null} onRefused={onClose} />
        )}
        <FormFooter
          general={error}
          onCancel={onClose}
          submitLabel={t('dispense.submit')}
          loading={dispense.isPending}
          leftSection={<IconPackageExport size={16} />}
        />
      </Stack>
    </ModalForm>
  );
}

function DispenseLine({
  prescriptionId,
  alerts,
  reasons,
  onReason,
  line,
  choice,
  lots,
  allocation,
  loading,
  problem,
  onChange,
}: {
  prescriptionId: string;
  alerts: TSafetyAlert[];
  reasons: Readonly<Record<string, string>>;
  onReason: (key: string, reason: string) => void;
  line: TPrescriptionLine;
  choice: LineChoice;
  lots: TLot[];
  allocation: Allocation;
  loading: boolean;
  problem: string | null;
  onChange: (change: Partial<LineChoice>) => void;
}) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  // Substitution: the other active presentations of the same medicine (same INN).
  const medication = useMedication(line.medication.id);
  const presentations = (medication.data?.presentations ?? [line.presentation]).filter(
    (p) => p.is_active || p.id === line.presentation.id,
  );
  const remaining = remainingOf(line);
  const substituted = choice.presentation !== line.presentation.id;
  const unit = presentations.find((p) => p.id === choice.presentation)?.unit ?? line.presentation.unit;
  const blocking = alerts.some(asksReason);

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="dispense-line"
      data-blocked={blocking || undefined}
      style={blocking ? { borderColor: 'var(--mantine-color-red-6)', borderLeftWidth: 4 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Checkbox
            checked={choice.include}
            onChange={(event) => onChange({ include: event.currentTarget.checked })}
            label={
              <Text fw={700} span>
                {medicationName(line.medication, lang)} — {presentationLabel(line.presentation)}
              </Text>
            }
          />
          <Badge variant="light" color="gray">
            {t('dispense.remaining', {
              count: remaining,
              unit: unitLabel(line.presentation.unit, remaining),
            })}
          </Badge>
        </Group>
        {/* Reasons are asked only once the pharmacist ticks the line: unticked, it is refused. */}
        <SafetyAlertList
          alerts={alerts}
          reasons={reasons}
          onReason={choice.include ? onReason : undefined}
          asks={asksReason}
        />
        {blocking && !choice.include && (
          <Text size="sm" c="red" fw={600} data-testid="line-refused">
            {t('dispense.blockedHint')}
          </Text>
        )}
        {!choice.include && alerts.length > 0 && (
          <RefuseDispense prescriptionId={prescriptionId} lines={[line.id]} />
        )}
        {choice.include && (
          <>
            <Group gap="sm" align="flex-start" wrap="wrap">
              <NumberInput
                label={t('dispense.quantity')}
                w={140}
                min={1}
                allowDecimal={false}
                allowNegative={false}
                value={choice.quantity}
                onChange={(quantity) => onChange({ quantity, allocation: null })}
              />
              <Select
                label={t('dispense.presentation')}
                allowDeselect={false}
                style={{ flex: 1, minWidth: 220 }}
                data={presentations.map((p) => ({
                  value: p.id,
                  label:
                    p.id === line.presentation.id
                      ? `${presentationLabel(p)} (${t('dispense.prescribed')})`
                      : presentationLabel(p),
                }))}
                value={choice.presentation}
                onChange={(presentation) => presentation && onChange({ presentation, allocation: null })}
              />
            </Group>
            {substituted && (
              <Text size="sm" c="orange" fw={600}>
                {t('dispense.substitution')}
              </Text>
            )}
            {loading ? (
              <Text size="sm" c="dimmed">
                {t('common:states.loading')}
              </Text>
            ) : lots.length === 0 ? (
              <Text size="sm" c="red" role="status">
                {t('dispense.noLots')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={420}>
                <Table verticalSpacing={4} data-testid="dispense-lots">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('lots.number')}</Table.Th>
                      <Table.Th>{t('lots.expiry')}</Table.Th>
                      <Table.Th>{t('lots.onHand')}</Table.Th>
                      <Table.Th>{t('dispense.fromLot')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {lots.map((lot) => (
                      <Table.Tr key={lot.id} data-testid="dispense-lot" data-lot={lot.lot_number}>
                        <Table.Td>{lot.lot_number}</Table.Td>
                        <Table.Td>{formatDate(lot.expiry_date)}</Table.Td>
                        <Table.Td>{lot.on_hand}</Table.Td>
                        <Table.Td>
                          <NumberInput
                            size="xs"
                            w={100}
                            min={0}
                            max={lot.on_hand}
                            allowDecimal={false}
                            allowNegative={false}
                            aria-label={t('dispense.fromLotLabel', { lot: lot.lot_number })}
                            value={allocation[lot.id] ?? 0}
                            onChange={(value) => {
                              const next = { ...allocation, [lot.id]: typeof value === 'number' ? value : 0 };
                              onChange({ allocation: next, quantity: allocated(next) });
                            }}
                          />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Text size="xs" c="dimmed">
              {t('dispense.unitHint', { unit: unitLabel(unit, 2) })}
            </Text>
            {problem && (
              <Text size="sm" c="red" role="alert">
                {problem}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
