/**
 * A cash session's report (issue 21): the cash per currency — float, received, refunded, expected, counted and the
 * variance (counted − expected; red when cash is missing, orange when there is too much) — and every payment method
 * (mobile money per operator) with its count and net total. An open session shows the same figures so far.
 */
import type { TCashSessionReport } from '@greensen/shared/contracts/billing';
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { money } from '../../../lib/money';
import { methodLabel } from './payment-format';

function Cell({ value, currency }: { value: number | null; currency: string }) {
  return (
    <Table.Td ff="monospace" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
      {value === null ? '—' : money(value, currency)}
    </Table.Td>
  );
}

export function SessionReport({ report }: { report: TCashSessionReport }) {
  const { t } = useTranslation('billing');
  const s = report.session;
  return (
    <Stack gap="md" data-testid="session-report">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Text fw={600}>{s.cashier.full_name}</Text>
          <Text size="sm" c="dimmed">
            {s.closed_at
              ? t('cash.period', { from: formatDateTime(s.opened_at), to: formatDateTime(s.closed_at) })
              : t('cash.openedAt', { date: formatDateTime(s.opened_at) })}
          </Text>
        </div>
        <Badge color={s.status === 'open' ? 'green' : 'gray'} variant="light">
          {t(`cash.statuses.${s.status}`)}
        </Badge>
      </Group>
      <Paper withBorder radius="md" p="sm">
        <Title order={5} mb="xs">
          {t('cash.cashTitle')}
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('cash.currency')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.float')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.received')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.refunded')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.expected')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.counted')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.variance')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.cash.map((row) => (
                <Table.Tr key={row.currency} data-testid="cash-row" data-currency={row.currency}>
                  <Table.Td fw={600}>{row.currency}</Table.Td>
                  <Cell value={row.float} currency={row.currency} />
                  <Cell value={row.received} currency={row.currency} />
                  <Cell value={row.refunded} currency={row.currency} />
                  <Cell value={row.expected} currency={row.currency} />
                  <Cell value={row.counted} currency={row.currency} />
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {row.variance === null ? (
                      '—'
                    ) : (
                      <Text
                        span
                        size="sm"
                        ff="monospace"
                        fw={700}
                        c={row.variance < 0 ? 'red' : row.variance > 0 ? 'orange' : 'green'}
                        data-testid="variance"
                      >
                        {row.variance > 0 ? '+' : ''}
                        {money(row.variance, row.currency)}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Paper withBorder radius="md" p="sm">
        <Title order={5} mb="xs">
          {t('cash.byMethod')}
        </Title>
        {report.by_method.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('cash.noPayments')}
          </Text>
        ) : (
          <Table verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('cash.method')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.count')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('cash.net')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.by_method.map((row) => (
                <Table.Tr key={`${row.method}-${row.operator}-${row.currency}`} data-testid="method-row">
                  <Table.Td>{methodLabel(row.method, row.operator)}</Table.Td>
                  <Table.Td style={{ textAlign: 'right' }}>{row.count}</Table.Td>
                  <Cell value={row.total} currency={row.currency} />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {s.note && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
          {s.note}
        </Text>
      )}
    </Stack>
  );
}
