/**
 * The exports tab of /analytics (decision 0039): the DHIS2 data value set of a month or an ISO week, the printable
 * monthly report and weekly IDSR report, and — for the hospital's administrators — the DHIS2 mapping.
 */
import { isoWeekOf } from '@greensen/shared/contracts/dhis2';
import { Alert, Button, Group, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { fetchDataValueSet, useDhis2Mapping } from '../api/dhis2';
import { download } from './csv';
import { Dhis2MappingForm } from './Dhis2MappingForm';

const pad = (n: number) => String(n).padStart(2, '0');

/** The last `n` months, newest first, as `yyyy-mm` (this month included). */
export function recentMonths(n: number, now = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(now.getFullYear(), now.getMonth() - i, 1);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
  });
}

/** The last `n` ISO weeks, newest first, as DHIS2 writes them (`2026W7`; this week included). */
export function recentWeeks(n: number, now = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7 * i);
    return isoWeekOf(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`);
  });
}

function ExportRow({
  title,
  label,
  options,
  value,
  onChange,
  period,
  printPath,
}: {
  title: string;
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (v: string) => void;
  /** The DHIS2 period of the choice. */
  period: string;
  printPath: string;
}) {
  const { t } = useTranslation('analytics');
  const to = useLocalizedPath();
  const [busy, setBusy] = useState(false);
  const exportDhis2 = async () => {
    setBusy(true);
    try {
      const set = await fetchDataValueSet(period);
      download(`dhis2-${period}.json`, `${JSON.stringify(set, null, 2)}\n`, 'application/json');
    } catch (error) {
      if (isApiError(error) && error.status === 409) toast({ kind: 'warning', title: error.message });
      else if (!isApiError(error)) toast({ kind: 'error', title: t('dhis2.exportFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label={label}
            data={options}
            value={value}
            onChange={(v) => v && onChange(v)}
            allowDeselect={false}
            w={200}
          />
          <Button leftSection={<IconDownload size={16} />} onClick={exportDhis2} loading={busy}>
            {t('dhis2.download')}
          </Button>
          <Button
            component={Link}
            to={to(printPath)}
            variant="default"
            leftSection={<IconPrinter size={16} />}
          >
            {t('report.open')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function ExportsPanel() {
  const { t, i18n } = useTranslation('analytics');
  const permissions = usePermissions();
  const isAdmin = permissions.can('stats.dhis2_mapping');
  const mapping = useDhis2Mapping(isAdmin);
  const months = recentMonths(13);
  const weeks = recentWeeks(13);
  const [month, setMonth] = useState(months[1]!);
  const [week, setWeek] = useState(weeks[1]!);
  const monthLabel = (m: string) =>
    new Date(`${m}-01T12:00:00`).toLocaleDateString(i18n.language, { month: 'long', year: 'numeric' });
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('dhis2.intro')}
      </Text>
      <ExportRow
        title={t('report.monthly')}
        label={t('report.month')}
        options={months.map((m) => ({ value: m, label: monthLabel(m) }))}
        value={month}
        onChange={setMonth}
        period={month.replace('-', '')}
        printPath={`/analytics/report/monthly?month=${month}`}
      />
      <ExportRow
        title={t('report.idsr')}
        label={t('report.week')}
        options={weeks.map((w) => ({ value: w, label: w.replace('W', ` · ${t('report.weekShort')} `) }))}
        value={week}
        onChange={setWeek}
        period={week}
        printPath={`/analytics/report/idsr?week=${week}`}
      />
      {isAdmin && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={4}>{t('dhis2.mapping')}</Title>
            <Text size="sm" c="dimmed">
              {t('dhis2.mappingHelp')}
            </Text>
            {mapping.isError ? (
              <LoadError error={mapping.error} onRetry={() => void mapping.refetch()} />
            ) : !mapping.data ? (
              <Skeleton height={200} />
            ) : (
              <>
                {!mapping.data.configured && <Alert color="yellow">{t('dhis2.notConfigured')}</Alert>}
                <Dhis2MappingForm key={mapping.data.updated_at ?? 'new'} mapping={mapping.data} />
              </>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
