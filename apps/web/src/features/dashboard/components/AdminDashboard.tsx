/**
 * The administrator's and head doctor's "Hospital Overview" (spec §6, issue 24): today's key figures and alerts,
 * the waiting room by triage level and time waited, today's outpatients and inpatients by department, today's
 * discharges, and this month's indicators linking to /analytics. GET /api/dashboard/overview/ (no patient
 * names), refreshed by the frame's timer every 120 s and by the dashboard flag.
 */
import type { TActivityStats, TDashboardOverview, TDiagnosisStats } from '@greensen/shared/contracts/stats';
import type { Language } from '@greensen/shared/domain/constants';
import type { DashboardConfig } from '@greensen/shared/domain/dashboards';
import {
  Alert,
  Badge,
  Button,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../../lib/api-client';
import { Figure } from '../../../lib/figure';
import { formatMinutes } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useModuleAllowed } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { overviewQueryOptions } from '../api/overview';
import { DashboardFrame } from './DashboardFrame';

function useOverview(hospitalId: string | null) {
  return useQuery(overviewQueryOptions(hospitalId));
}

function Overview({
  hospitalId,
  children,
}: {
  hospitalId: string | null;
  children: (data: TDashboardOverview) => ReactNode;
}) {
  const query = useOverview(hospitalId);
  if (query.isError)
    return (
      <Stack p="md">
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      </Stack>
    );
  if (!query.data)
    return (
      <Stack p="md" gap="xs">
        <Skeleton h={72} />
        <Skeleton h={160} />
      </Stack>
    );
  return (
    <Stack p="md" gap="md">
      {children(query.data)}
    </Stack>
  );
}

function SummaryPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  return (
    <Overview hospitalId={hospitalId}>
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure
              label={t('admin.figures.admissions')}
              value={data.today.admissions}
              hint={t('admin.figures.byType', data.today.by_type)}
            />
            <Figure label={t('admin.figures.waiting')} value={data.today.waiting} />
            <Figure label={t('admin.figures.inConsultation')} value={data.today.in_consultation} />
            <Figure label={t('admin.figures.completed')} value={data.today.consultations_completed} />
            <Figure label={t('admin.figures.hospitalized')} value={data.today.hospitalized} />
            <Figure
              label={t('admin.figures.beds')}
              value={`${data.inpatient.occupied} / ${data.inpatient.beds}`}
            />
            <Figure label={t('admin.figures.discharged')} value={data.today.discharged} />
            <Figure label={t('admin.figures.deaths')} value={data.today.deaths} />
          </SimpleGrid>
          {data.alerts.length === 0 ? (
            <Alert color="teal" icon={<IconCircleCheck size={18} />} data-testid="overview-no-alert">
              {t('admin.noAlert')}
            </Alert>
          ) : (
            data.alerts.map((alert) => (
              <Alert
                key={alert.kind}
                color="orange"
                icon={<IconAlertTriangle size={18} />}
                data-testid={`overview-alert-${alert.kind}`}
              >
                {t(`admin.alerts.${alert.kind}`, { count: alert.count })}
              </Alert>
            ))
          )}
        </>
      )}
    </Overview>
  );
}

function WaitingPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  return (
    <Overview hospitalId={hospitalId}>
      {(data) =>
        data.waiting.length === 0 ? (
          <Text c="dimmed">{t('admin.waitingEmpty')}</Text>
        ) : (
          <Table striped withTableBorder data-testid="overview-waiting">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.columns.level')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.patients')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.average')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.longest')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.target')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.overTarget')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.waiting.map((row) => (
                <Table.Tr key={row.level ?? 'none'}>
                  <Table.Td>{row.level ?? t('admin.untriaged')}</Table.Td>
                  <Table.Td ta="right">{row.count}</Table.Td>
                  <Table.Td ta="right">{formatMinutes(row.average_minutes)}</Table.Td>
                  <Table.Td ta="right">{formatMinutes(row.longest_minutes)}</Table.Td>
                  <Table.Td ta="right">
                    {row.target_minutes === null ? '—' : formatMinutes(row.target_minutes)}
                  </Table.Td>
                  <Table.Td ta="right">
                    {row.over_target > 0 ? <Badge color="red">{row.over_target}</Badge> : 0}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      }
    </Overview>
  );
}

function OutpatientPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  return (
    <Overview hospitalId={hospitalId}>
      {(data) =>
        data.outpatient.length === 0 ? (
          <Text c="dimmed">{t('admin.outpatientEmpty')}</Text>
        ) : (
          <Table striped withTableBorder data-testid="overview-outpatient">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.columns.department')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.visits')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.waiting')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.inConsultation')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.completed')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.outpatient.map((row) => (
                <Table.Tr key={row.department.id}>
                  <Table.Td>{row.department.name}</Table.Td>
                  <Table.Td ta="right">{row.admissions}</Table.Td>
                  <Table.Td ta="right">{row.waiting}</Table.Td>
                  <Table.Td ta="right">{row.in_consultation}</Table.Td>
                  <Table.Td ta="right">{row.completed}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      }
    </Overview>
  );
}

function InpatientPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  return (
    <Overview hospitalId={hospitalId}>
      {(data) => {
        const { beds, occupied } = data.inpatient;
        const rate = beds > 0 ? Math.round((occupied / beds) * 100) : 0;
        return (
          <>
            <Group gap="sm" align="center">
              <Text fw={600}>{t('admin.occupancy', { occupied, beds, rate })}</Text>
              {data.inpatient.pending_bed > 0 && (
                <Badge color="orange">{t('admin.pendingBed', { count: data.inpatient.pending_bed })}</Badge>
              )}
            </Group>
            <Progress value={rate} color={rate >= 90 ? 'red' : 'teal'} aria-label={t('admin.figures.beds')} />
            {data.inpatient.by_department.length === 0 ? (
              <Text c="dimmed">{t('admin.inpatientEmpty')}</Text>
            ) : (
              <Table striped withTableBorder data-testid="overview-inpatient">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('admin.columns.department')}</Table.Th>
                    <Table.Th ta="right">{t('admin.columns.census')}</Table.Th>
                    <Table.Th ta="right">{t('admin.columns.pendingBed')}</Table.Th>
                    <Table.Th ta="right">{t('admin.columns.admittedToday')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.inpatient.by_department.map((row) => (
                    <Table.Tr key={row.department.id}>
                      <Table.Td>{row.department.name}</Table.Td>
                      <Table.Td ta="right">{row.census}</Table.Td>
                      <Table.Td ta="right">{row.pending_bed}</Table.Td>
                      <Table.Td ta="right">{row.admitted_today}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </>
        );
      }}
    </Overview>
  );
}

function DischargedPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  return (
    <Overview hospitalId={hospitalId}>
      {(data) =>
        data.discharged.length === 0 ? (
          <Text c="dimmed">{t('admin.dischargedEmpty')}</Text>
        ) : (
          <Table striped withTableBorder data-testid="overview-discharged">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.columns.mode')}</Table.Th>
                <Table.Th ta="right">{t('admin.columns.patients')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.discharged.map((row) => (
                <Table.Tr key={row.mode}>
                  <Table.Td>{t(`admin.modes.${row.mode}`)}</Table.Td>
                  <Table.Td ta="right">{row.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      }
    </Overview>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
function thisMonth(now = new Date()) {
  const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
  return {
    from: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-01`,
    to: `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`,
  };
}

/** This month's activity and notifiable diseases, with the way to the full indicators. */
function AnalyticsPanel({ hospitalId }: { hospitalId: string | null }) {
  const { t } = useTranslation('dashboard');
  const to = useLocalizedPath();
  const allowed = useModuleAllowed('analytics');
  const period = thisMonth();
  const activity = useQuery({
    queryKey: ['dashboard', 'admin', hospitalId, 'activity', period] as const,
    queryFn: ({ signal }) => api.get<TActivityStats>('stats/activity/', { query: period, signal }),
    enabled: allowed && hospitalId !== null,
  });
  const diagnoses = useQuery({
    queryKey: ['dashboard', 'admin', hospitalId, 'diagnoses', period] as const,
    queryFn: ({ signal }) => api.get<TDiagnosisStats>('stats/diagnoses/', { query: period, signal }),
    enabled: allowed && hospitalId !== null,
  });
  if (!allowed) return <Text p="md">{t('admin.analyticsUnavailable')}</Text>;
  const error = activity.error ?? diagnoses.error;
  if (error) return <LoadError error={error} />;
  if (!activity.data || !diagnoses.data) return <Skeleton m="md" h={160} />;
  const visits = activity.data.admissions_by_day.reduce((s, d) => s + d.total, 0);
  const max = Math.max(1, ...diagnoses.data.idsr.map((d) => d.total));
  return (
    <Stack p="md" gap="md">
      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        <Figure label={t('admin.month.visits')} value={visits} />
        <Figure label={t('admin.month.new')} value={activity.data.patients.new} />
        <Figure
          label={t('admin.month.consultations')}
          value={activity.data.consultations_by_doctor.reduce((s, d) => s + d.consultations, 0)}
        />
      </SimpleGrid>
      <Text fw={600}>{t('admin.month.idsr')}</Text>
      <Stack gap={6} data-testid="overview-idsr">
        {diagnoses.data.idsr
          .filter((d) => d.total > 0)
          .map((d) => (
            <Group key={d.disease} gap="sm" wrap="nowrap">
              <Text size="sm" w={220}>
                {t(`admin.idsr.${d.disease}`)}
              </Text>
              <Progress value={(d.total / max) * 100} style={{ flex: 1 }} color="red" />
              <Text size="sm" w={48} ta="right">
                {d.total}
              </Text>
            </Group>
          ))}
        {diagnoses.data.idsr.every((d) => d.total === 0) && (
          <Text size="sm" c="dimmed">
            {t('admin.month.noIdsr')}
          </Text>
        )}
      </Stack>
      <Button
        component={Link}
        to={to(`/analytics?from=${period.from}&to=${period.to}`)}
        leftSection={<IconChartBar size={16} />}
        variant="light"
        style={{ alignSelf: 'flex-start' }}
      >
        {t('admin.openAnalytics')}
      </Button>
    </Stack>
  );
}

export function AdminDashboard({
  config,
  lang,
  hospitalId,
}: {
  config: DashboardConfig;
  lang: Language;
  hospitalId: string | null;
}) {
  return (
    <DashboardFrame
      config={config}
      lang={lang}
      hospitalId={hospitalId}
      panels={{
        dashboard: <SummaryPanel hospitalId={hospitalId} />,
        waiting: <WaitingPanel hospitalId={hospitalId} />,
        outpatient: <OutpatientPanel hospitalId={hospitalId} />,
        inpatient: <InpatientPanel hospitalId={hospitalId} />,
        discharged: <DischargedPanel hospitalId={hospitalId} />,
        analytics: <AnalyticsPanel hospitalId={hospitalId} />,
      }}
    />
  );
}
