/**
 * Recording one dose of the MAR (issue 20), from the care file's MAR and from the dashboard's tasks: given (real
 * time — now by default —, actual dose, route, site) or not given (refused, absent, vomited, out of stock, held
 * by order, other — with a note for "other").
 *
 * A dose is recorded once: the form makes its idempotency key when it opens (one key per entry), sends it with
 * every submit — a double tap, or "Save" again after a network failure — and the server answers the first record
 * to the others. The button is disabled while the request is pending. Opening the form again makes a new entry.
 *
 * Medication safety (issue 34): the five rights at the top — the patient (photo, name, record number, birth
 * date, allergies), the medicine, the dose, the route and the time —, the line's alerts from the server with the
 * prescriber's override reason, and a dose given more than TIMING_WINDOW_MINUTES off its time flagged. A blocking
 * alert asks the nurse's own reason to record it as given (or she records it not given); a refusal of the server
 * (409 `medication_safety`) adds the alerts it names. `stat`: the first dose given now (POST care/mar/stat/), from
 * which the line's schedule follows.
 */
import { DOSE_NOT_GIVEN_REASONS, type TDose, type TMarLine } from '@greensen/shared/contracts/care';
import {
  type TAdministrationCreateSafe,
  TIMING_WINDOW_MINUTES,
  type TSafetyAlert,
} from '@greensen/shared/contracts/medication-safety';
import { ROUTES, type TPresentation } from '@greensen/shared/contracts/pharmacy';
import {
  Alert,
  Avatar,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconBolt, IconCheck, IconClockExclamation, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api-client';
import { ClinicalNumberInput } from '../../../clinical-number-input';
import { DateTimeField } from '../../../date-field';
import { serverErrorsFromBody } from '../../../field-errors';
import { formatDate, formatDateTime, formatMinutes } from '../../../format';
import { uiLanguage } from '../../../i18n';
import { useIdempotencyKey } from '../../../idempotency';
import { ModalForm } from '../../../modal-form';
import { useRecordDose } from '../../api/care';
import { safetyConflictAlerts, useStatDose } from '../../api/medication-safety';
import { doseLabel, medicationName, presentationLabel, routeLabel, unitLabel } from '../prescription-format';
import { asksReason, mergeAlerts, missingReasons, overridesOf, SafetyAlertList } from '../SafetyAlerts';
import { fromLocalInput, realTimeError, toLocalInput } from './care-time';
import { ReasonChips } from './ReasonChips';

type DoseLine = Omit<TMarLine, 'doses'>;
type Outcome = 'given' | 'not_given';
type Reason = (typeof DOSE_NOT_GIVEN_REASONS)[number];

/** The patient of the five rights (the MAR's; the tasks know the name and record number). */
export interface DosePatient {
  full_name: string;
  record_number: string;
  birth_date?: string | null;
  photo_url?: string | null;
  /** The allergies' texts; null: nobody asked. */
  allergies?: string[] | null;
}

/** Minutes from the scheduled time to the given time (negative: early); null when unreadable. */
export function minutesOff(scheduledAt: string, givenAt: string | null): number | null {
  if (!givenAt) return null;
  return Math.round((Date.parse(givenAt) - Date.parse(scheduledAt)) / 60_000);
}

function Right({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={600}>{children}</Text>
    </div>
  );
}

export function DoseModal({
  line,
  dose,
  patientName,
  patient,
  alerts: lineAlerts = [],
  stat = false,
  initialOutcome = 'given',
  onClose,
}: {
  line: DoseLine;
  dose: Pick<TDose, 'scheduled_at' | 'status'>;
  patientName: string;
  patient?: DosePatient | null;
  /** The line's alerts now, from the server (with the prescriber's overrides). */
  alerts?: readonly TSafetyAlert[];
  /** The first dose, given now; the schedule follows from it. */
  stat?: boolean;
  initialOutcome?: Outcome;
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const lang = uiLanguage();
  const { key } = useIdempotencyKey();
  const record = useRecordDose(`${medicationName(line.medication, lang)} — ${patientName}`);
  const statDose = useStatDose();
  const pending = record.isPending || statDose.isPending;
  const [outcome, setOutcome] = useState<Outcome>(stat ? 'given' : initialOutcome);
  const [refused, setRefused] = useState<TSafetyAlert[]>([]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const alerts = mergeAlerts(lineAlerts, refused);
  const [givenAt, setGivenAt] = useState(() => toLocalInput(new Date()));
  const [amount, setAmount] = useState<number | null>(line.dose);
  const [route, setRoute] = useState<string>(line.route);
  const [site, setSite] = useState('');
  const [reason, setReason] = useState<Reason | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  // A second tap before React re-renders the disabled button still finds the entry in flight.
  const inFlight = useRef(false);

  const submit = () => {
    if (inFlight.current) return;
    const found: Record<string, string> = {};
    let body: TAdministrationCreateSafe;
    const common = {
      prescription_line: line.id,
      scheduled_at: dose.scheduled_at,
      idempotency_key: key,
      note: note.trim() || null,
    };
    if (outcome === 'given') {
      const timeError = realTimeError(givenAt);
      if (timeError) found.given_at = t(`time.errors.${timeError}`);
      const n = amount !== null && Number.isFinite(amount) ? amount : null;
      if (n === null || n <= 0) found.dose = t('mar.errors.dose');
      body = {
        ...common,
        outcome: 'given',
        given_at: fromLocalInput(givenAt),
        dose: n ?? 0,
        dose_unit: line.dose_unit,
        route: route as (typeof ROUTES)[number],
        site: site.trim() || null,
      };
    } else {
      if (!reason) found.reason = t('mar.errors.reason');
      if (reason === 'other' && !note.trim()) found.note = t('mar.errors.note');
      body = { ...common, outcome: 'not_given', reason: reason ?? 'other' };
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // Given despite a blocking alert: the nurse's own reason for each (not given needs none).
    if (outcome === 'given') {
      if (missingReasons(alerts, reasons, asksReason).length > 0) {
        setGeneral(t('mar.safety.reasonsMissing'));
        return;
      }
      const overrides = overridesOf(alerts, reasons, asksReason, (a) => a.prescription_line);
      if (overrides.length > 0) body = { ...body, overrides };
    }
    setGeneral(null);
    inFlight.current = true;
    const handlers = {
      onSettled: () => {
        inFlight.current = false;
      },
      onSuccess: onClose,
      onError: (error: unknown) => {
        const conflict = safetyConflictAlerts(error);
        if (conflict) {
          setRefused((known) => mergeAlerts(known, conflict));
          setGeneral(t('safety:refused'));
        } else if (isApiError(error) && error.status === 400) {
          const server = serverErrorsFromBody(error.body);
          setErrors(server.fields);
          setGeneral(server.general);
        } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404)) {
          setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
        }
      },
    };
    if (stat && body.outcome === 'given') {
      const { outcome: _o, scheduled_at: _s, given_at: _g, ...given } = body;
      statDose.mutate(given, handlers);
    } else record.mutate(body, handlers);
  };

  // The time actually given against the scheduled one (a display: the server records and flags it).
  const off = stat || outcome !== 'given' ? null : minutesOff(dose.scheduled_at, fromLocalInput(givenAt));
  const offFlag = off !== null && Math.abs(off) > TIMING_WINDOW_MINUTES;

  const doseText = doseLabel(line.dose, line.dose_unit);
  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      size="lg"
      title={t(stat ? 'mar.stat.title' : 'mar.modalTitle', { patient: patientName })}
    >
      <Stack gap="md" data-testid="dose-form" data-stat={stat || undefined}>
        <Paper withBorder radius="md" p="sm" data-testid="five-rights">
          <Group gap="sm" wrap="nowrap" align="flex-start" mb="xs">
            <Avatar src={patient?.photo_url ?? null} alt="" radius="xl" size="lg" color="greensen">
              {(patient?.full_name ?? patientName).slice(0, 1)}
            </Avatar>
            <div style={{ minWidth: 0 }}>
              <Text fw={700} size="lg" data-testid="right-patient">
                {patient?.full_name ?? patientName}
              </Text>
              {patient && (
                <Text size="sm" c="dimmed">
                  {[
                    patient.record_number,
                    patient.birth_date
                      ? t('mar.rights.born', { date: formatDate(patient.birth_date) })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              )}
              {patient && patient.allergies !== undefined && (
                <Text size="sm" c={patient.allergies?.length ? 'red' : 'orange'} fw={600}>
                  {patient.allergies === null
                    ? t('safety:allergies.not_asked')
                    : patient.allergies.length === 0
                      ? t('safety:allergies.none_known')
                      : t('safety:allergies.recorded', { list: patient.allergies.join(', ') })}
                </Text>
              )}
            </div>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            <Right label={t('mar.rights.medicine')} testId="right-medicine">
              {medicationName(line.medication, lang)} ·{' '}
              {presentationLabel(line as Pick<TPresentation, 'form' | 'strength'>)}
            </Right>
            <Right label={t('mar.rights.dose')} testId="right-dose">
              {doseText}
            </Right>
            <Right label={t('mar.rights.route')} testId="right-route">
              {routeLabel(line.route)}
            </Right>
            <Right label={t('mar.rights.time')} testId="right-time">
              {stat ? t('mar.stat.now') : formatDateTime(dose.scheduled_at)}
            </Right>
          </SimpleGrid>
        </Paper>
        {stat && (
          <Alert
            color="blue"
            variant="light"
            icon={<IconBolt size={18} />}
            role="status"
            data-testid="stat-notice"
          >
            {t('mar.stat.notice')}
          </Alert>
        )}
        <SafetyAlertList
          alerts={alerts}
          reasons={reasons}
          onReason={
            outcome === 'given'
              ? (key, reason) => setReasons((all) => ({ ...all, [key]: reason }))
              : undefined
          }
          asks={asksReason}
        />
        {!stat && (
          <SegmentedControl
            fullWidth
            size="md"
            value={outcome}
            onChange={(value) => setOutcome(value as Outcome)}
            data={[
              { value: 'given', label: t('mar.given') },
              { value: 'not_given', label: t('mar.notGiven') },
            ]}
          />
        )}
        {outcome === 'given' ? (
          <>
            {!stat && (
              <DateTimeField
                size="md"
                label={t('mar.givenAt')}
                value={givenAt}
                max={toLocalInput(new Date())}
                onChange={setGivenAt}
                error={errors.given_at}
              />
            )}
            {offFlag && off !== null && (
              <Alert
                color="orange"
                variant="light"
                icon={<IconClockExclamation size={18} />}
                role="status"
                data-testid="timing-flag"
                data-timing={off < 0 ? 'early' : 'late'}
              >
                {t(off < 0 ? 'mar.timing.early' : 'mar.timing.late', {
                  duration: formatMinutes(Math.abs(off)),
                  time: formatDateTime(dose.scheduled_at),
                })}
              </Alert>
            )}
            <Group grow align="flex-start">
              <ClinicalNumberInput
                size="md"
                label={t('mar.dose')}
                min={0.001}
                max={100_000}
                decimals={3}
                unit={unitLabel(
                  line.dose_unit,
                  amount !== null && Number.isFinite(amount) ? amount : line.dose,
                )}
                value={amount}
                onChange={setAmount}
                error={errors.dose}
              />
              <Select
                size="md"
                label={t('mar.route')}
                data={ROUTES.map((r) => ({ value: r, label: routeLabel(r) }))}
                value={route}
                onChange={(value) => setRoute(value ?? line.route)}
                allowDeselect={false}
                error={errors.route}
              />
            </Group>
            <TextInput
              size="md"
              label={t('mar.site')}
              placeholder={t('mar.sitePlaceholder')}
              value={site}
              onChange={(event) => setSite(event.currentTarget.value)}
              error={errors.site}
            />
          </>
        ) : (
          <ReasonChips
            label={t('mar.reason')}
            reasons={DOSE_NOT_GIVEN_REASONS}
            value={reason}
            onChange={setReason}
            labelOf={(r) => t(`mar.reasons.${r}`)}
            error={errors.reason}
          />
        )}
        <Textarea
          size="md"
          label={t('mar.note')}
          autosize
          minRows={2}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={errors.note}
        />
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" size="md" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button
            type="submit"
            size="md"
            color={outcome === 'given' ? 'green' : 'orange'}
            loading={pending}
            disabled={pending}
            leftSection={outcome === 'given' ? <IconCheck size={18} /> : <IconX size={18} />}
            data-testid="dose-submit"
          >
            {stat
              ? t('mar.stat.confirm')
              : outcome === 'given'
                ? t('mar.confirmGiven')
                : t('mar.confirmNotGiven')}
          </Button>
        </Group>
      </Stack>
    </ModalForm>
  );
}
