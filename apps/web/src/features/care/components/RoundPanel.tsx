/**
 * The round (issue 20): the vitals of every patient of a ward (or of the department) in one screen, made for a
 * tablet — one card per patient, numeric keypads, big targets. As the nurse types, each card shows the NEWS2 of
 * what was typed with its colour (the shared scoring function the server applies), and fields outside the
 * physiological bounds of triage at once. "Save the round" sends every card that holds something in one request
 * (all saved or none); the server's errors come back on their card and field. Afterwards each saved set shows its
 * score and, when it crossed the escalation threshold, the doctor who was notified.
 */
import type { TVitalsRecord } from '@greensen/shared/contracts/care';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBellRinging, IconDeviceFloppy } from '@tabler/icons-react';
import { memo, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { News2Badge } from '../../../lib/clinical/components/care/News2Badge';
import { serverErrorsFromBody } from '../../../lib/field-errors';
import { formatTime } from '../../../lib/format';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { isQueued } from '../../../lib/offline/clinical-queue';
import { LoadError } from '../../../lib/page-states';
import { type Scope, type TRoundPatient, useRound, useSubmitRound } from '../api/care-file';
import { EMPTY_ROUND_ROW, liveNews2, type RoundRow, readRow } from './round-values';
import { VitalsEntryFields } from './VitalsEntryFields';

interface PendingSet {
  at: string;
  news2: ReturnType<typeof liveNews2>;
}

const rowKey = (p: TRoundPatient) => p.hospitalization ?? p.admission ?? p.patient.id;

/** The server's 400 body of a round: `entries.<n>.vitals.<field>` (or `entries.<n>.<field>`) by card. */
function serverRowErrors(body: unknown, keys: string[]) {
  const { fields, general } = serverErrorsFromBody(body);
  const rows: Record<string, Record<string, string>> = {};
  const rest: string[] = general ? [general] : [];
  for (const [path, message] of Object.entries(fields)) {
    const match = /^entries\.(\d+)\.(?:vitals\.)?(\w+)$/.exec(path);
    const key = match ? keys[Number(match[1])] : undefined;
    if (match && key) {
      rows[key] = { ...rows[key], [match[2] ?? '']: message };
    } else rest.push(message);
  }
  return { rows, general: rest.length > 0 ? rest.join(' ') : null };
}

const RoundCard = memo(function RoundCard({
  patient,
  row,
  serverErrors,
  saved,
  pending,
  onChange,
}: {
  patient: TRoundPatient;
  row: RoundRow;
  serverErrors: Record<string, string> | undefined;
  saved: TVitalsRecord | undefined;
  /** Recorded without network (issue 40): its time and the NEWS2 computed here, as the server will. */
  pending: PendingSet | undefined;
  onChange: (key: string, row: RoundRow) => void;
}) {
  const { t } = useTranslation('care');
  const key = rowKey(patient);
  const read = readRow(row);
  const news2 = liveNews2(read, { applies: patient.news2_applies, hypercapnic: patient.hypercapnic });
  const latest = patient.latest;
  const set = (patch: Partial<RoundRow>) => onChange(key, { ...row, ...patch });
  const crossed = news2 !== null && news2.escalation !== 'none';
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="round-row"
      data-patient={patient.patient.full_name}
      style={crossed ? { borderColor: `var(--mantine-color-${news2.colour}-6)`, borderWidth: 2 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Text fw={700} truncate>
              {patient.patient.full_name}
              {patient.patient.age !== null && (
                <Text span c="dimmed" fw={400} size="sm">
                  {' '}
                  · {t('age', { count: patient.patient.age })}
                </Text>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              {patient.place
                ? t('place', { room: patient.place.room.name, bed: patient.place.bed.label })
                : t('noBed')}
              {latest ? ` · ${t('round.latest', { time: formatTime(latest.recorded_at) })}` : ''}
              {patient.due_execution ? ` · ${t('round.due')}` : ''}
            </Text>
          </div>
          <Group gap="xs" wrap="nowrap">
            {patient.news2 && !news2 && (
              <News2Badge
                score={patient.news2.score}
                risk={patient.news2.risk}
                complete={patient.news2.complete}
                size="md"
              />
            )}
            {news2 && (
              <News2Badge
                score={news2.score}
                risk={news2.risk}
                complete={news2.complete}
                testId="live-news2"
              />
            )}
            {!patient.news2_applies && (
              <Badge color="gray" variant="light">
                {t('news2.child')}
              </Badge>
            )}
          </Group>
        </Group>
        {crossed && (
          <Text size="sm" c={`${news2.colour}.8`} fw={600} data-testid="news2-escalation">
            <IconAlertTriangle size={14} style={{ verticalAlign: 'middle' }} />{' '}
            {t(`news2.escalation.${news2.escalation}`)}
          </Text>
        )}
        <VitalsEntryFields
          row={row}
          read={read}
          previous={latest}
          serverErrors={serverErrors}
          who={patient.patient.full_name}
          onChange={set}
        />
        {serverErrors?.hospitalization && (
          <Text size="sm" c="red">
            {serverErrors.hospitalization}
          </Text>
        )}
        {pending && (
          <Group gap="xs" data-testid="round-pending">
            <Badge color="orange" variant="light">
              {t('shell:offline.pendingAt', { time: formatTime(pending.at) })}
            </Badge>
            {pending.news2 && (
              <News2Badge
                score={pending.news2.score}
                risk={pending.news2.risk}
                complete={pending.news2.complete}
                size="md"
              />
            )}
          </Group>
        )}
        {saved && (
          <Group gap="xs" data-testid="round-saved">
            <Badge color="green" variant="light">
              {t('round.saved', { time: formatTime(saved.recorded_at) })}
            </Badge>
            {saved.news2 && (
              <News2Badge
                score={saved.news2.score}
                risk={saved.news2.risk}
                complete={saved.news2.complete}
                size="md"
              />
            )}
            {saved.escalated_to.length > 0 && (
              <Badge color="red" leftSection={<IconBellRinging size={12} />} data-testid="round-escalated">
                {t('round.escalated', { names: saved.escalated_to.map((p) => p.full_name).join(', ') })}
              </Badge>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
});

export function RoundPanel({ scope }: { scope: Scope }) {
  const { t } = useTranslation('care');
  const round = useRound(scope);
  const submit = useSubmitRound();
  const [rows, setRows] = useState<Record<string, RoundRow>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, Record<string, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saved, setSaved] = useState<Record<string, TVitalsRecord>>({});
  const [pending, setPending] = useState<Record<string, PendingSet>>({});
  const onChange = useCallback((key: string, row: RoundRow) => {
    setRows((current) => ({ ...current, [key]: row }));
  }, []);

  const patients = round.data?.results ?? [];
  const entries = useMemo(
    () =>
      patients
        .map((p) => ({ patient: p, key: rowKey(p), read: readRow(rows[rowKey(p)] ?? EMPTY_ROUND_ROW) }))
        .filter((e) => e.read.touched),
    [patients, rows],
  );
  const invalid = entries.filter((e) => Object.keys(e.read.errors).length > 0).length;

  if (round.isError) return <LoadError error={round.error} onRetry={() => void round.refetch()} />;
  if (round.isPending)
    return (
      <Stack gap="xs" data-testid="round-loading">
        <Skeleton h={160} />
        <Skeleton h={160} />
      </Stack>
    );

  const save = () => {
    if (submit.isPending || entries.length === 0 || invalid > 0) return;
    setGeneral(null);
    setServerErrors({});
    const keys = entries.map((e) => e.key);
    const at = new Date().toISOString();
    submit.mutate(
      {
        body: {
          entries: entries.map(({ patient, read }) => ({
            hospitalization: patient.hospitalization,
            admission: patient.hospitalization ? null : patient.admission,
            execution: patient.due_execution,
            idempotency_key: newIdempotencyKey(),
            vitals: {
              ...read.values,
              avpu: read.values.avpu,
              confused: read.values.confused || null,
            },
          })),
        },
        labels: entries.map((e) => e.patient.patient.full_name),
      },
      {
        onSuccess: (answer) => {
          if (isQueued(answer)) {
            const waiting: Record<string, PendingSet> = {};
            for (const { key, patient, read } of entries)
              waiting[key] = {
                at,
                news2: liveNews2(read, { applies: patient.news2_applies, hypercapnic: patient.hypercapnic }),
              };
            setPending((current) => ({ ...current, ...waiting }));
            setRows({});
            return;
          }
          const byKey: Record<string, TVitalsRecord> = {};
          answer.results.forEach((record, index) => {
            const key = keys[index];
            if (key) byKey[key] = record;
          });
          setSaved(byKey);
          setRows({});
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 400) {
            const parsed = serverRowErrors(error.body, keys);
            setServerErrors(parsed.rows);
            setGeneral(parsed.general ?? (Object.keys(parsed.rows).length ? null : error.message));
          } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404))
            setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
        },
      },
    );
  };

  if (patients.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid="round-empty">
        {t('round.empty')}
      </Text>
    );

  return (
    <Stack gap="sm" data-testid="round">
      <Text size="sm" c="dimmed">
        {t('round.hint')}
      </Text>
      {patients.map((patient) => {
        const key = rowKey(patient);
        return (
          <RoundCard
            key={key}
            patient={patient}
            row={rows[key] ?? EMPTY_ROUND_ROW}
            serverErrors={serverErrors[key]}
            saved={saved[key]}
            pending={saved[key] ? undefined : pending[key]}
            onChange={onChange}
          />
        );
      })}
      <Paper
        withBorder
        radius="md"
        p="sm"
        shadow="md"
        style={{ position: 'sticky', bottom: 8, zIndex: 2 }}
        data-no-print
      >
        <Stack gap="xs">
          {general && (
            <Alert color="red" role="alert">
              {general}
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" c={invalid > 0 ? 'red' : 'dimmed'}>
              {invalid > 0
                ? t('round.invalid', { count: invalid })
                : t('round.count', { count: entries.length })}
            </Text>
            <Button
              size="lg"
              leftSection={<IconDeviceFloppy size={20} />}
              onClick={save}
              loading={submit.isPending}
              disabled={entries.length === 0 || invalid > 0}
              data-testid="round-submit"
            >
              {t('round.save', { count: entries.length })}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
