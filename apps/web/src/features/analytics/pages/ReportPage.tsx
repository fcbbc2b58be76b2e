/**
 * The printable reports of /analytics (decision 0039): the monthly aggregate report
 * (`/analytics/report/monthly?month=yyyy-mm`) and the weekly IDSR report (`/analytics/report/idsr?week=2026W7`),
 * laid out for an A4 sheet — the hospital and the period at the top, the tables, a Print button. The figures are
 * the indicators' own (`/api/stats/…`, whole hospital).
 */
import { parseDhis2Period } from '@greensen/shared/contracts/dhis2';
import { IDSR_AGE_GROUPS } from '@greensen/shared/contracts/stats';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { PrintStyles } from '../../../lib/print-styles';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { type StatsFilters, useStats } from '../api/stats';

const REPORT_PRINT_CSS = `@media print {
  @page { size: A4 portrait; margin: 12mm; }
  [data-report] { border: none !important; box-shadow: none !important; padding: 0 !important; }
  [data-report] table { page-break-inside: auto; font-size: 10pt; }
  [data-report] tr { page-break-inside: avoid; }
  [data-report] h2, [data-report] h3 { page-break-after: avoid; }
}`;

const sum = <T,>(rows: T[], f: (r: T) => number) => rows.reduce((s, r) => s + f(r), 0);

/** The report's period from its address: a month `yyyy-mm` or an ISO week `yyyyWn`; null when invalid. */
export function reportPeriod(kind: string | undefined, params: URLSearchParams) {
  if (kind === 'monthly') {
    const month = params.get('month') ?? '';
    const days = /^\d{4}-\d{2}$/.test(month) ? parseDhis2Period(month.replace('-', '')) : null;
    return days ? { ...days, kind, label: month } : null;
  }
  if (kind === 'idsr') {
    const week = params.get('week') ?? '';
    const days = parseDhis2Period(week);
    return days?.kind === 'weekly' ? { ...days, kind, label: week } : null;
  }
  return null;
}

function FigureTable({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Table withTableBorder withColumnBorders>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td>{label}</Table.Td>
            <Table.Td ta="right" w={140}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function IdsrTable({ filters }: { filters: StatsFilters }) {
  const { t } = useTranslation('analytics');
  const query = useStats('diagnoses', filters);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton height={300} />;
  return (
    <Table withTableBorder withColumnBorders data-testid="report-idsr">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('columns.disease')}</Table.Th>
          {IDSR_AGE_GROUPS.map((g) => (
            <Table.Th key={g} ta="right">
              {t(`age.${g}`)}
            </Table.Th>
          ))}
          <Table.Th ta="right">{t('columns.total')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {query.data.idsr.map((d) => (
          <Table.Tr key={d.disease}>
            <Table.Td>{t(`idsr.${d.disease}`)}</Table.Td>
            {IDSR_AGE_GROUPS.map((g) => (
              <Table.Td key={g} ta="right">
                {d.by_age[g]}
              </Table.Td>
            ))}
            <Table.Td ta="right" fw={700}>
              {d.total}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function MonthlyTables({ filters }: { filters: StatsFilters }) {
  const { t } = useTranslation('analytics');
  const activity = useStats('activity', filters);
  const laboratory = useStats('laboratory', filters);
  const inpatient = useStats('inpatient', filters);
  const diagnoses = useStats('diagnoses', filters);
  const failed = [activity, laboratory, inpatient, diagnoses].find((q) => q.isError);
  if (failed) return <LoadError error={failed.error} onRetry={() => void failed.refetch()} />;
  if (!activity.data || !laboratory.data || !inpatient.data || !diagnoses.data)
    return <Skeleton height={400} data-testid="report-loading" />;
  const days = activity.data.admissions_by_day;
  const types = ['outpatient', 'emergency', 'maternity', 'inpatient'] as const;
  const malaria = laboratory.data.malaria;
  return (
    <Stack gap="md">
      <Title order={3}>{t('sections.activity')}</Title>
      <FigureTable
        rows={[
          ...types.map((type): [string, ReactNode] => [
            `${t('activity.admissions')} · ${t(`types.${type}`)}`,
            sum(days, (d) => d[type]),
          ]),
          [t('activity.admissions'), sum(days, (d) => d.total)],
          [t('activity.consultations'), sum(activity.data.consultations_by_doctor, (d) => d.consultations)],
          [t('activity.new'), activity.data.patients.new],
          [t('activity.returning'), activity.data.patients.returning],
        ]}
      />
      <Title order={3}>{t('sections.inpatient')}</Title>
      <FigureTable
        rows={[
          [t('inpatient.admissions'), inpatient.data.admissions],
          [t('inpatient.discharges'), inpatient.data.discharges],
          [t('inpatient.deaths'), inpatient.data.deaths],
          [t('inpatient.alos'), inpatient.data.average_length_of_stay ?? '—'],
          [
            t('inpatient.occupancy'),
            inpatient.data.occupancy === null ? '—' : `${formatNumber(inpatient.data.occupancy)} %`,
          ],
        ]}
      />
      <Title order={3}>{t('sections.laboratory')}</Title>
      <FigureTable
        rows={[
          [t('laboratory.malariaTested'), malaria.tested],
          [t('laboratory.malariaPositive'), malaria.positive],
          [
            t('laboratory.positivity'),
            malaria.tested > 0 ? `${Math.round((malaria.positive / malaria.tested) * 1000) / 10} %` : '—',
          ],
        ]}
      />
      <Title order={3}>{t('diagnoses.idsr')}</Title>
      <IdsrTable filters={filters} />
      <Title order={3}>{t('diagnoses.top')}</Title>
      <FigureTable
        rows={diagnoses.data.top_codes.map((c): [string, ReactNode] => [`${c.code} ${c.label}`, c.count])}
      />
    </Stack>
  );
}

export default function ReportPage() {
  const { kind } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation('analytics');
  const to = useLocalizedPath();
  const period = reportPeriod(kind, params);
  const hospital = useStats('diagnoses', {
    from: period?.from ?? '',
    to: period?.to ?? '',
    department: null,
    hospitals: null,
  });
  if (!period) return <Navigate to={to('/analytics?tab=exports')} replace />;
  const filters: StatsFilters = { from: period.from, to: period.to, department: null, hospitals: null };
  const title = period.kind === 'monthly' ? t('report.monthly') : t('report.idsr');
  return (
    <Stack gap="md">
      <PrintStyles />
      <style>{REPORT_PRINT_CSS}</style>
      <Group justify="space-between" data-no-print>
        <Anchor component={Link} to={to('/analytics?tab=exports')} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            {t('report.back')}
          </Group>
        </Anchor>
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t('report.print')}
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg" maw={900} data-report data-testid="report">
        <Stack gap="md">
          <div style={{ textAlign: 'center' }}>
            <Title order={2}>{hospital.data?.period.hospital.name ?? ''}</Title>
            <Text fw={700}>{title}</Text>
            <Text size="sm" data-testid="report-period">
              {period.label} · {period.from} – {period.to}
            </Text>
            <Text size="xs" c="dimmed">
              {t('export.generated')} {new Date().toLocaleString()}
            </Text>
          </div>
          {period.kind === 'monthly' ? <MonthlyTables filters={filters} /> : <IdsrTable filters={filters} />}
        </Stack>
      </Paper>
    </Stack>
  );
}
