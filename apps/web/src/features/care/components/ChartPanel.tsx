/**
 * The temperature chart of a stay ("feuille de température", issue 20): a week at a time (back to the first day
 * of the stay), the curves drawn by a charting library loaded only here (TemperatureChart, decision 0026) with
 * the table of the same measurements beside them, and the days' intake, output, balance and weight. "Print"
 * prints the sheet (the app's shell and the buttons are left out).
 */
import { FLUID_KINDS } from '@greensen/shared/contracts/care';
import {
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconDroplet, IconPrinter } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { ClinicalNumberInput } from '../../../lib/clinical-number-input';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { LoadError } from '../../../lib/page-states';
import { PrintStyles } from '../../../lib/print-styles';
import { useAddFluid, useChart } from '../api/care-file';
import { chartPoints } from './chart-points';

const TemperatureChart = lazy(() => import('./TemperatureChart'));
const DAYS = 7;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const cell = (v: number | null | undefined) =>
  v === null || v === undefined ? '' : formatNumber(v, uiLanguage());

function FluidModal({ plan, onClose }: { plan: string; onClose: () => void }) {
  const { t } = useTranslation('care');
  const add = useAddFluid(plan);
  const [direction, setDirection] = useState<'intake' | 'output'>('intake');
  const [kind, setKind] = useState<string>('oral');
  const [volume, setVolume] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const submit = () => {
    if (add.isPending) return;
    if (volume === null || !Number.isInteger(volume) || volume < 1 || volume > 10_000) {
      setError(t('chart.errors.volume'));
      return;
    }
    setError(null);
    add.mutate(
      { direction, kind, volume_ml: volume },
      {
        onSuccess: onClose,
        onError: (e) => setGeneral(isApiError(e) && e.status !== 0 ? e.message : t('mar.errors.network')),
      },
    );
  };
  return (
    <ModalForm opened onClose={onClose} onSubmit={submit} title={t('chart.fluidTitle')}>
      <Stack gap="md" data-testid="fluid-form">
        <SegmentedControl
          fullWidth
          size="md"
          value={direction}
          onChange={(value) => {
            setDirection(value as 'intake' | 'output');
            setKind(value === 'intake' ? 'oral' : 'urine');
          }}
          data={[
            { value: 'intake', label: t('chart.intake') },
            { value: 'output', label: t('chart.output') },
          ]}
        />
        <Select
          size="md"
          label={t('chart.fluidKind')}
          data={FLUID_KINDS.map((k) => ({ value: k, label: t(`chart.fluidKinds.${k}`) }))}
          value={kind}
          onChange={(value) => setKind(value ?? kind)}
          allowDeselect={false}
        />
        <ClinicalNumberInput
          size="md"
          label={t('chart.volume')}
          unit="mL"
          decimals={0}
          min={1}
          max={10_000}
          value={volume}
          onChange={setVolume}
          error={error}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('chart.saveFluid')}
          loading={add.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

export function ChartPanel({ plan, patientName }: { plan: string; patientName: string }) {
  const { t } = useTranslation('care');
  const [from, setFrom] = useState<string | null>(null);
  const [fluid, setFluid] = useState(false);
  const query = useChart(plan, from, DAYS);
  const points = useMemo(() => (query.data ? chartPoints(query.data) : []), [query.data]);
  const range = useMemo<[number, number]>(
    () =>
      query.data
        ? [
            new Date(`${query.data.from}T00:00:00`).getTime(),
            new Date(`${addDays(query.data.to, 1)}T00:00:00`).getTime(),
          ]
        : [0, 0],
    [query.data],
  );

  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={360} data-testid="chart-loading" />;
  const chart = query.data;
  const canGoBack = chart.from > chart.since;

  return (
    <Stack gap="md" data-testid="chart-panel">
      <PrintStyles />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={4}>{t('chart.title', { patient: patientName })}</Title>
          <Text size="sm" c="dimmed">
            {t('chart.period', { from: formatDate(chart.from), to: formatDate(chart.to) })}
          </Text>
        </div>
        <Group gap="xs" data-no-print>
          <Button
            variant="default"
            size="md"
            leftSection={<IconChevronLeft size={16} />}
            disabled={!canGoBack}
            onClick={() => setFrom(addDays(chart.from, -DAYS))}
          >
            {t('chart.earlier')}
          </Button>
          <Button
            variant="default"
            size="md"
            rightSection={<IconChevronRight size={16} />}
            disabled={from === null}
            onClick={() => {
              const next = addDays(chart.from, DAYS);
              const today = new Date().toISOString().slice(0, 10);
              setFrom(next > addDays(today, -DAYS + 1) ? null : next);
            }}
          >
            {t('chart.later')}
          </Button>
          <Button
            variant="light"
            size="md"
            leftSection={<IconDroplet size={16} />}
            onClick={() => setFluid(true)}
          >
            {t('chart.addFluid')}
          </Button>
          <Button
            variant="light"
            size="md"
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
          >
            {t('chart.print')}
          </Button>
        </Group>
      </Group>
      {points.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="chart-empty">
          {t('chart.empty')}
        </Text>
      ) : (
        <Suspense
          fallback={
            <Center h={360}>
              <Loader />
            </Center>
          }
        >
          <TemperatureChart points={points} range={range} />
        </Suspense>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped withTableBorder withColumnBorders data-testid="chart-table" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('chart.time')}</Table.Th>
              <Table.Th>{t('vitals.short.temperature')}</Table.Th>
              <Table.Th>{t('vitals.short.heart_rate')}</Table.Th>
              <Table.Th>{t('chart.bp')}</Table.Th>
              <Table.Th>{t('vitals.short.respiratory_rate')}</Table.Th>
              <Table.Th>{t('vitals.short.spo2')}</Table.Th>
              <Table.Th>{t('vitals.short.pain')}</Table.Th>
              <Table.Th>{t('chart.weight')}</Table.Th>
              <Table.Th>{t('chart.height')}</Table.Th>
              <Table.Th>NEWS2</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chart.points.map((p) => (
              <Table.Tr key={p.at}>
                <Table.Td>{formatDateTime(p.at)}</Table.Td>
                <Table.Td>{cell(p.temperature)}</Table.Td>
                <Table.Td>{cell(p.heart_rate)}</Table.Td>
                <Table.Td>
                  {p.systolic_bp !== null ? `${p.systolic_bp}/${cell(p.diastolic_bp) || '—'}` : ''}
                </Table.Td>
                <Table.Td>{cell(p.respiratory_rate)}</Table.Td>
                <Table.Td>{cell(p.spo2)}</Table.Td>
                <Table.Td>{cell(p.pain)}</Table.Td>
                <Table.Td>{cell(p.weight)}</Table.Td>
                <Table.Td>{cell(p.height)}</Table.Td>
                <Table.Td>{cell(p.news2)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={5}>{t('chart.fluids')}</Title>
      <Table.ScrollContainer minWidth={480}>
        <Table withTableBorder withColumnBorders data-testid="fluids-table" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('chart.day')}</Table.Th>
              <Table.Th>{t('chart.intake')}</Table.Th>
              <Table.Th>{t('chart.output')}</Table.Th>
              <Table.Th>{t('chart.balance')}</Table.Th>
              <Table.Th>{t('chart.weight')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chart.days.map((d) => (
              <Table.Tr key={d.date}>
                <Table.Td>{formatDate(d.date)}</Table.Td>
                <Table.Td>{d.intake_ml ? `${formatNumber(d.intake_ml)} mL` : ''}</Table.Td>
                <Table.Td>{d.output_ml ? `${formatNumber(d.output_ml)} mL` : ''}</Table.Td>
                <Table.Td c={d.balance_ml < 0 ? 'orange' : undefined}>
                  {d.intake_ml || d.output_ml
                    ? `${d.balance_ml > 0 ? '+' : ''}${formatNumber(d.balance_ml)} mL`
                    : ''}
                </Table.Td>
                <Table.Td>{d.weight !== null ? `${cell(d.weight)} kg` : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {fluid && <FluidModal plan={plan} onClose={() => setFluid(false)} />}
    </Stack>
  );
}
