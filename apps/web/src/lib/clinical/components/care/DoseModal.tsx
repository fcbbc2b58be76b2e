/**
 * Recording one dose of the MAR (issue 20), from the care file's MAR and from the dashboard's tasks: given (real
 * time — now by default —, actual dose, route, site) or not given (refused, absent, vomited, out of stock, held
 * by order, other — with a note for "other").
 *
 * A dose is recorded once: the form makes its idempotency key when it opens (one key per entry), sends it with
 * every submit — a double tap, or "Save" again after a network failure — and the server answers the first record
 * to the others. The button is disabled while the request is pending. Opening the form again makes a new entry.
 */
import {
  DOSE_NOT_GIVEN_REASONS,
  type TAdministrationCreate,
  type TDose,
  type TMarLine,
} from '@greensen/shared/contracts/care';
import { ROUTES, type TPresentation } from '@greensen/shared/contracts/pharmacy';
import {
  Alert,
  Button,
  Chip,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api-client';
import { ClinicalNumberInput } from '../../../clinical-number-input';
import { serverErrorsFromBody } from '../../../field-errors';
import { formatDateTime } from '../../../format';
import { uiLanguage } from '../../../i18n';
import { useIdempotencyKey } from '../../../idempotency';
import { ModalForm } from '../../../modal-form';
import { useRecordDose } from '../../api/care';
import { medicationName, presentationLabel, routeLabel, unitLabel } from '../prescription-format';
import { fromLocalInput, realTimeError, toLocalInput } from './care-time';
import { ReasonChips } from './ReasonChips';

type DoseLine = Omit<TMarLine, 'doses'>;
type Outcome = 'given' | 'not_given';
type Reason = (typeof DOSE_NOT_GIVEN_REASONS)[number];

export function DoseModal({
  line,
  dose,
  patientName,
  initialOutcome = 'given',
  onClose,
}: {
  line: DoseLine;
  dose: Pick<TDose, 'scheduled_at' | 'status'>;
  patientName: string;
  initialOutcome?: Outcome;
  onClose: () => void;
}) {
  const { t } = useTranslation('care');
  const lang = uiLanguage();
  const { key } = useIdempotencyKey();
  const record = useRecordDose();
  const [outcome, setOutcome] = useState<Outcome>(initialOutcome);
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
    let body: TAdministrationCreate;
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
    setGeneral(null);
    inFlight.current = true;
    record.mutate(body, {
      onSettled: () => {
        inFlight.current = false;
      },
      onSuccess: onClose,
      onError: (error) => {
        if (isApiError(error) && error.status === 400) {
          const server = serverErrorsFromBody(error.body);
          setErrors(server.fields);
          setGeneral(server.general);
        } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404)) {
          setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
        }
      },
    });
  };

  const doseText = `${line.dose} ${unitLabel(line.dose_unit, line.dose)}`;
  return (
    <ModalForm
      opened
      onClose={onClose}
      onSubmit={submit}
      size="lg"
      title={t('mar.modalTitle', { patient: patientName })}
    >
      <Stack gap="md" data-testid="dose-form">
        <div>
          <Text fw={700} size="lg">
            {medicationName(line.medication, lang)} ·{' '}
            {presentationLabel(line as Pick<TPresentation, 'form' | 'strength'>)}
          </Text>
          <Text size="sm" c="dimmed">
            {t('mar.prescribed', {
              dose: doseText,
              route: routeLabel(line.route),
              time: formatDateTime(dose.scheduled_at),
            })}
          </Text>
        </div>
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
        {outcome === 'given' ? (
          <>
            <TextInput
              type="datetime-local"
              size="md"
              label={t('mar.givenAt')}
              value={givenAt}
              max={toLocalInput(new Date())}
              onChange={(event) => setGivenAt(event.currentTarget.value)}
              error={errors.given_at}
            />
            <Group grow align="flex-start">
              <ClinicalNumberInput
                size="md"
                label={t('mar.dose')}
                min={0.001}
                max={100_000}
                decimals={3}
                unit={line.dose_unit}
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
            loading={record.isPending}
            disabled={record.isPending}
            leftSection={outcome === 'given' ? <IconCheck size={18} /> : <IconX size={18} />}
            data-testid="dose-submit"
          >
            {outcome === 'given' ? t('mar.confirmGiven') : t('mar.confirmNotGiven')}
          </Button>
        </Group>
      </Stack>
    </ModalForm>
  );
}
