/**
 * /analytics (Reporting, issue 24): the indicators of a period and a department of the current hospital, one tab
 * per section (only the open tab is fetched), a chart and its table per indicator, CSV export of every table,
 * and — for those who may read the consultations — the records behind the diagnoses figures.
 */
import { Button, Group, Select, Stack, Tabs } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useModuleScope } from '../../../lib/app-config';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { DateField } from '../../../lib/date-field';
import { PageHeader } from '../../../lib/page-states';
import { permissionsFor, usePermissions } from '../../../lib/permissions';
import { useAuthStore } from '../../../stores/auth';
import { useUserStore } from '../../../stores/user';
import { type DrilldownTarget, SECTIONS, type Section, type StatsFilters } from '../api/stats';
import { DrilldownModal } from '../components/DrilldownModal';
import { ExportsPanel } from '../components/ExportsPanel';
import { AnalyticsSection } from '../components/Sections';

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The first and last days of the month `offset` months from now (local calendar). */
export function monthRange(offset: number, now = new Date()): { from: string; to: string } {
  const first = new Date(now.getFullYear(), now.getMonth() + offset, 1);
  const last = new Date(now.getFullYear(), now.getMonth() + offset + 1, 0);
  return { from: isoDay(first), to: isoDay(last) };
}

export default function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const [params, setParams] = useSearchParams();
  const thisMonth = monthRange(0);
  const filters: StatsFilters = {
    from: params.get('from') ?? thisMonth.from,
    to: params.get('to') ?? thisMonth.to,
    department: params.get('department'),
    hospitals: params.get('hospitals') === 'all' ? 'all' : null,
  };
  // The sections, then the exports tab (printable reports and DHIS2; decision 0039).
  const tab = [...SECTIONS, 'exports'].includes(params.get('tab') ?? '')
    ? (params.get('tab') as Section | 'exports')
    : 'activity';
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const departments = useDepartments();
  const permissions = usePermissions();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const user = useUserStore((state) => state.user);
  const { environment, extraModules } = useModuleScope();
  // The hospitals where the user reads the figures: several offer the "all hospitals" scope.
  const readable = (user?.hospitals ?? []).filter((h) =>
    permissionsFor(user, h.id, environment, extraModules).can('stats.read'),
  );
  const hospitalName = filters.hospitals
    ? readable.map((h) => h.name).join(', ')
    : (user?.hospitals.find((h) => h.id === hospitalId)?.name ?? '');
  const departmentName =
    departments.data?.results.find((d) => d.id === filters.department)?.name ?? t('filters.allDepartments');
  const context = useMemo<[string, string][]>(
    () => [
      [t('export.hospital'), hospitalName],
      [t('export.period'), `${filters.from} – ${filters.to}`],
      [t('export.department'), departmentName],
      [t('export.generated'), new Date().toISOString()],
    ],
    [t, hospitalName, filters.from, filters.to, departmentName],
  );
  const [target, setTarget] = useState<DrilldownTarget | null>(null);
  // The records behind a figure are of the current hospital only.
  const onDrill = permissions.can('stats.drilldown') && !filters.hospitals ? setTarget : null;
  const invalid = filters.from > filters.to;

  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Group align="flex-end" wrap="wrap" gap="sm">
        <DateField
          label={t('filters.from')}
          value={filters.from}
          max={filters.to}
          onChange={(v) => set({ from: v || null })}
          w={160}
        />
        <DateField
          label={t('filters.to')}
          value={filters.to}
          min={filters.from}
          onChange={(v) => set({ to: v || null })}
          w={160}
          error={invalid ? t('filters.invalid') : undefined}
        />
        <Select
          label={t('filters.department')}
          placeholder={t('filters.allDepartments')}
          clearable
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={filters.department}
          onChange={(v) => set({ department: v })}
          w={220}
        />
        {readable.length > 1 && (
          <Select
            label={t('filters.scope')}
            data={[
              { value: 'one', label: t('filters.thisHospital') },
              { value: 'all', label: t('filters.allHospitals', { count: readable.length }) },
            ]}
            value={filters.hospitals ?? 'one'}
            onChange={(v) => set({ hospitals: v === 'all' ? 'all' : null, department: null })}
            allowDeselect={false}
            w={220}
            data-testid="stats-scope"
          />
        )}
        <Button variant="default" onClick={() => set(monthRange(0))}>
          {t('filters.thisMonth')}
        </Button>
        <Button variant="default" onClick={() => set(monthRange(-1))}>
          {t('filters.lastMonth')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={(v) => set({ tab: v })} keepMounted={false}>
        <Tabs.List style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
          {SECTIONS.map((section) => (
            <Tabs.Tab key={section} value={section}>
              {t(`sections.${section}`)}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="exports">{t('sections.exports')}</Tabs.Tab>
        </Tabs.List>
        {SECTIONS.map((section) => {
          return (
            <Tabs.Panel key={section} value={section} pt="md">
              {!invalid && (
                <AnalyticsSection section={section} filters={filters} context={context} onDrill={onDrill} />
              )}
            </Tabs.Panel>
          );
        })}
        <Tabs.Panel value="exports" pt="md">
          <ExportsPanel />
        </Tabs.Panel>
      </Tabs>
      <DrilldownModal filters={filters} target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}
