/**
 * The audit viewer (issue 15): who read or changed which record, when, from where — filtered by person, patient,
 * resource type, action (or a family `patient.*`) and days, a page at a time, newest first; the same filters
 * export as CSV. Reading the trail and exporting it are audited too.
 */
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_RESOURCE_TYPES,
  type TAuditEvent,
} from '@greensen/shared/contracts/audit';
import { Autocomplete, Badge, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { DateFilter } from '../../../lib/date-filter';
import { formatDateTime } from '../../../lib/format';
import { useListPage } from '../../../lib/list-filters';
import { toast } from '../../../lib/toast';
import { type AuditFilters, downloadAuditCsv, useAudit } from '../api/audit';
import { useStaff } from '../api/list-staff';

const PAGE_SIZE = 25;
const OUTCOME_COLORS: Record<string, string> = { success: 'green', failure: 'orange', denied: 'red' };
/** Suggestions of the action field; any action (or family) can be typed. */
const ACTION_SUGGESTIONS = [
  'patient.read',
  'patient.*',
  'admission.*',
  'consultation.*',
  'exam.*',
  'triage.*',
  'staff.*',
  'auth.login',
  'auth.*',
  'access.denied',
  'audit.*',
];

function StaffPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const staff = useStaff({ search: debounced, page: 1, pageSize: 20 });
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const options = useMemo(() => {
    const found = (staff.data?.results ?? []).map((p) => ({
      value: p.id,
      label: `${p.full_name} — ${p.email}`,
    }));
    if (picked && picked.value === value && !found.some((o) => o.value === picked.value))
      found.unshift(picked);
    return found;
  }, [staff.data, picked, value]);
  return (
    <Select
      label={t('audit.filters.person')}
      placeholder={t('audit.filters.anyone')}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      data={options}
      value={value}
      nothingFoundMessage={t('audit.filters.nobody')}
      onChange={(next, option) => {
        onChange(next);
        setPicked(next && option ? { value: next, label: option.label } : null);
      }}
    />
  );
}

function actorText(t: (key: string) => string, e: TAuditEvent): string {
  if (e.actor.kind === 'user') return e.actor.full_name || e.user?.email || '—';
  if (e.actor.kind === 'system')
    return e.actor.on_behalf_of
      ? `${t('audit.system')} (${e.actor.source}) · ${e.actor.on_behalf_of.full_name}`
      : `${t('audit.system')} (${e.actor.source})`;
  return t('audit.anonymous');
}

export function AuditPanel() {
  const { t } = useTranslation('admin');
  const [filters, setFilters] = useState<AuditFilters>({});
  const [action, setAction] = useState('');
  const [debouncedAction] = useDebouncedValue(action, 400);
  const { page, setPage, resetPage } = useListPage();
  const set = (key: keyof AuditFilters) =>
    resetPage((value: string | null) => setFilters((current) => ({ ...current, [key]: value || null })));
  // A family must end in `.*`; a half-typed action is not sent (the server would refuse it).
  const actionFilter = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.\*)?$/.test(debouncedAction)
    ? debouncedAction
    : null;
  const applied = { ...filters, action: actionFilter };
  const query = useAudit(applied, page, PAGE_SIZE);
  const [exporting, setExporting] = useState(false);

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadAuditCsv(applied);
    } catch {
      toast({ kind: 'error', title: t('audit.exportFailed') });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Stack gap="md" data-testid="audit-panel">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        <StaffPicker value={filters.user ?? null} onChange={set('user')} />
        <PatientPicker
          label={t('audit.filters.patient')}
          placeholder={t('audit.filters.anyPatient')}
          required={false}
          withAsterisk={false}
          clearable
          nothingFound={t('audit.filters.noPatient')}
          value={filters.patient ?? null}
          onChange={(id) => set('patient')(id || null)}
        />
        <Select
          label={t('audit.filters.resource')}
          placeholder={t('audit.filters.any')}
          data={AUDIT_RESOURCE_TYPES.map((value) => ({ value, label: t(`audit.resources.${value}`) }))}
          value={filters.resource ?? null}
          onChange={set('resource')}
          searchable
          clearable
        />
        <Autocomplete
          label={t('audit.filters.action')}
          placeholder="patient.read, staff.*"
          data={ACTION_SUGGESTIONS}
          value={action}
          onChange={(value) => {
            setAction(value.trim().toLowerCase());
            setPage(1);
          }}
          error={debouncedAction && !actionFilter ? t('audit.filters.actionInvalid') : undefined}
        />
        <DateFilter label={t('audit.filters.from')} value={filters.from ?? ''} onChange={set('from')} />
        <DateFilter label={t('audit.filters.to')} value={filters.to ?? ''} onChange={set('to')} />
      </SimpleGrid>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {query.data
            ? t(query.data.count_capped ? 'audit.countCapped' : 'audit.count', { count: query.data.count })
            : ''}
        </Text>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          loading={exporting}
          onClick={() => void exportCsv()}
          title={t('audit.exportHint', { max: AUDIT_EXPORT_MAX_ROWS.toLocaleString() })}
        >
          {t('audit.export')}
        </Button>
      </Group>
      <PagedQueryTable<TAuditEvent>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={t('audit.empty')}
        columns={[
          {
            accessor: 'occurred_at',
            title: t('audit.columns.when'),
            render: (e) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(e.occurred_at)}
              </Text>
            ),
          },
          {
            accessor: 'actor',
            title: t('audit.columns.who'),
            render: (e) => (
              <Stack gap={2}>
                <Text size="sm">{actorText(t, e)}</Text>
                {e.role_code && (
                  <Text size="xs" c="dimmed">
                    {e.role_code}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'action',
            title: t('audit.columns.what'),
            render: (e) => (
              <Stack gap={2}>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" ff="monospace">
                    {e.action}
                  </Text>
                  {e.outcome !== 'success' && (
                    <Badge size="xs" variant="light" color={OUTCOME_COLORS[e.outcome] ?? 'gray'}>
                      {t(`audit.outcomes.${e.outcome}`, { defaultValue: e.outcome })}
                    </Badge>
                  )}
                </Group>
                {e.resource_type && (
                  <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                    {t(`audit.resources.${e.resource_type}`, { defaultValue: e.resource_type })}
                    {e.resource_id ? ` · ${e.resource_id}` : ''}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'patient',
            title: t('audit.columns.patient'),
            render: (e) =>
              e.patient ? (
                <Text size="sm">
                  {e.patient.full_name}
                  {e.patient.record_number ? ` (${e.patient.record_number})` : ''}
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  —
                </Text>
              ),
          },
          {
            accessor: 'ip',
            title: t('audit.columns.where'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
            render: (e) => (
              <Text size="xs" ff="monospace">
                {e.ip ?? '—'}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
