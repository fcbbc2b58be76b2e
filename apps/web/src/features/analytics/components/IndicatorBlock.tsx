/**
 * One indicator: its chart (lazily loaded uPlot) beside its table, with the CSV and XLSX exports of the table (the
 * indicator, hospital, period and filters written first; one table→rows logic for both, `table-export.ts`).
 */
import {
  Button,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartSeries } from './BarChart';
import { downloadCsv, downloadXlsx, type ExportColumn, exportTable } from './table-export';

const BarChart = lazy(() => import('./BarChart'));

export interface Column<R> extends ExportColumn<R> {
  /** What the cell shows (a drill-down link…); the value by default. */
  render?: (row: R) => ReactNode;
  numeric?: boolean;
}

export function IndicatorBlock<R>({
  id,
  title,
  rows,
  columns,
  chart,
  figure,
  context,
}: {
  id: string;
  title: string;
  rows: R[];
  columns: Column<R>[];
  chart?: { categories: string[]; series: ChartSeries[] } | undefined;
  /** A figure drawn otherwise than as bars (the age pyramid), in place of `chart`. */
  figure?: ReactNode;
  /** The period and filters, written at the top of the exported file. */
  context: [string, string][];
}) {
  const { t } = useTranslation('analytics');
  const [busy, setBusy] = useState(false);
  const table = () => exportTable(id, title, [[t('export.indicator'), title], ...context], columns, rows);
  const exportXlsx = () => {
    setBusy(true);
    downloadXlsx(table()).finally(() => setBusy(false));
  };
  const tableView = (
    // Focusable and named, so that a keyboard can scroll a table wider than its column (axe).
    <ScrollArea viewportProps={{ tabIndex: 0, 'aria-label': title }}>
      <Table striped withTableBorder highlightOnHover data-testid={`table-${id}`}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} ta={c.numeric ? 'right' : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows of a figure table have no identity of their own
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.label} ta={c.numeric ? 'right' : undefined}>
                  {c.render ? c.render(row) : (c.value(row) ?? '—')}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={4}>{title}</Title>
          <Group gap="xs" data-no-print>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconDownload size={14} />}
              onClick={() => downloadCsv(table())}
              disabled={rows.length === 0}
            >
              {t('export.csv')}
            </Button>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconDownload size={14} />}
              onClick={exportXlsx}
              loading={busy}
              disabled={rows.length === 0}
            >
              {t('export.xlsx')}
            </Button>
          </Group>
        </Group>
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('empty')}
          </Text>
        ) : figure || (chart && chart.categories.length > 0) ? (
          // Side by side only on wide screens: at 1280 px half the width clipped a table's headings.
          <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
            {figure ?? (
              <Suspense fallback={<Skeleton height={260} />}>
                {chart && <BarChart title={title} categories={chart.categories} series={chart.series} />}
              </Suspense>
            )}
            {tableView}
          </SimpleGrid>
        ) : (
          tableView
        )}
      </Stack>
    </Paper>
  );
}
