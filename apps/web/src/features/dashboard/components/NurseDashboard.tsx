/**
 * Nurse dashboard "Unit Overview" (spec §6): the `my-patients` tab lists the inpatients of the nurse's wards
 * (GET /api/nurses/{id}/patients/, the nurse's own id), the highest NEWS2 first (the patient's one series of
 * vitals: triage, consultation or ward, issue 37), with bed and ward, days in hospital, latest vitals and what needs
 * her eye (allergies, a transfer under way, the expected stay exceeded); a row opens the stay. The
 * `tasks` and `handoffs` tabs (issue 20) are chunks of their own, loaded with the care strings when opened, so the
 * first screen does not carry them. Refreshed by the frame's timer (60 s) and the dashboard flag.
 */
import type { TNursePatient } from '@greensen/shared/contracts/hospitalizations';
import type { Language } from '@greensen/shared/domain/constants';
import type { DashboardConfig } from '@greensen/shared/domain/dashboards';
import { Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockExclamation, IconTransfer } from '@tabler/icons-react';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNursePatients } from '../../../lib/clinical/api/nurse-patients';
import { News2Badge } from '../../../lib/clinical/components/care/News2Badge';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { formatTime } from '../../../lib/format';
import { i18n, uiLanguage } from '../../../lib/i18n';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { DashboardFrame } from './DashboardFrame';

const PAGE_SIZE = 20;

/** A tab loaded when opened, with the strings it reads (care; the medicines' routes and units of pharmacy). */
function careTab(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), i18n.loadNamespaces(['care', 'pharmacy'])]);
    return module;
  });
}
const NurseTasksPanel = careTab(() => import('./NurseTasksPanel'));
const NurseHandoffsPanel = careTab(() => import('./NurseHandoffsPanel'));

function TabLoading() {
  return (
    <Stack gap="xs" p="sm">
      <Skeleton h={72} />
      <Skeleton h={72} />
    </Stack>
  );
}

const FLAG_VISUALS = {
  allergies: { color: 'red', Icon: IconAlertTriangle },
  transfer: { color: 'grape', Icon: IconTransfer },
  overstay: { color: 'orange', Icon: IconClockExclamation },
} as const;

function Vitals({ vitals }: { vitals: TNursePatient['latest_vitals'] }) {
  const { t } = useTranslation('dashboard');
  if (!vitals)
    return (
      <Text size="sm" c="dimmed">
        {t('nurse.noVitals')}
      </Text>
    );
  const parts = [
    vitals.temperature !== null
      ? t('nurse.vitals.temperature', {
          value: vitals.temperature.toLocaleString(uiLanguage() === 'fr' ? 'fr-FR' : 'en-GB'),
        })
      : null,
    vitals.heart_rate !== null ? t('nurse.vitals.heartRate', { value: vitals.heart_rate }) : null,
    vitals.systolic_bp !== null && vitals.diastolic_bp !== null
      ? t('nurse.vitals.bloodPressure', { systolic: vitals.systolic_bp, diastolic: vitals.diastolic_bp })
      : null,
    vitals.respiratory_rate !== null
      ? t('nurse.vitals.respiratoryRate', { value: vitals.respiratory_rate })
      : null,
    vitals.spo2 !== null ? t('nurse.vitals.spo2', { value: vitals.spo2 }) : null,
  ].filter(Boolean);
  return (
    <div>
      <Text size="sm">{parts.join(' · ') || '—'}</Text>
      <Text size="xs" c="dimmed">
        {t('nurse.vitalsAt', { time: formatTime(vitals.recorded_at) })}
      </Text>
    </div>
  );
}

function NursePatients() {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { userId } = usePermissions();
  const [page, setPage] = useState(1);
  const query = useNursePatients(userId, page, PAGE_SIZE);
  return (
    <PagedQueryTable<TNursePatient>
      query={query}
      page={page}
      onPageChange={setPage}
      pageSize={PAGE_SIZE}
      noRecordsText={t('nurse.empty')}
      onRowClick={({ record }) => navigate(to(`/hospitalizations/${record.id}`))}
      columns={[
        {
          accessor: 'place',
          title: t('nurse.columns.bed'),
          render: (p) =>
            p.place ? (
              <div>
                <Text size="sm" fw={700}>
                  {t('nurse.bed', { room: p.place.room.name, bed: p.place.bed.label })}
                </Text>
                <Text size="xs" c="dimmed">
                  {p.place.ward.name}
                </Text>
              </div>
            ) : (
              <Text size="sm" c="orange" fw={600}>
                {t('nurse.pendingBed')}
              </Text>
            ),
        },
        {
          accessor: 'patient',
          title: t('nurse.columns.patient'),
          render: (p) => <PatientCell patient={p.patient} />,
        },
        {
          accessor: 'days',
          title: t('nurse.columns.days'),
          render: (p) => (
            <div>
              <Text size="sm">{t('nurse.days', { count: p.days })}</Text>
              <Text size="xs" c="dimmed" lineClamp={1}>
                {p.provisional_diagnosis?.label ?? p.reason}
              </Text>
            </div>
          ),
        },
        {
          accessor: 'news2',
          title: t('nurse.columns.news2'),
          render: (p) =>
            p.news2 ? (
              <News2Badge
                score={p.news2.score}
                risk={p.news2.risk}
                complete={p.news2.complete}
                size="md"
                strings="dashboard"
                testId="nurse-news2"
              />
            ) : (
              <Text size="sm" c="dimmed">
                {t('nurse.noNews2')}
              </Text>
            ),
        },
        {
          accessor: 'latest_vitals',
          title: t('nurse.columns.vitals'),
          render: (p) => <Vitals vitals={p.latest_vitals} />,
        },
        {
          accessor: 'flags',
          title: t('nurse.columns.flags'),
          render: (p) => (
            <Group gap={4}>
              {p.flags.map((flag) => {
                const { color, Icon } = FLAG_VISUALS[flag];
                return (
                  <Badge key={flag} size="xs" color={color} variant="light" leftSection={<Icon size={10} />}>
                    {t(`nurse.flags.${flag}`)}
                  </Badge>
                );
              })}
            </Group>
          ),
        },
      ]}
    />
  );
}

export function NurseDashboard({
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
        'my-patients': (
          <Stack gap={0} p={0}>
            <NursePatients />
          </Stack>
        ),
        tasks: (
          <Suspense fallback={<TabLoading />}>
            <NurseTasksPanel />
          </Suspense>
        ),
        handoffs: (
          <Suspense fallback={<TabLoading />}>
            <NurseHandoffsPanel />
          </Suspense>
        ),
      }}
    />
  );
}
