/**
 * The Relevés tab (formerly "Tiers payants", decision 0036): what to claim from an insurer, a mutual, an employer or a free-care programme over a period
 * — the issued invoices and credit notes (negative) of the period with a payer share, the member number, and the
 * total. Printable with the browser.
 */
import { Button, Group, Paper, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateFilter } from '../../../lib/date-filter';
import { formatDate } from '../../../lib/format';
import { money } from '../../../lib/money';
import { LoadError } from '../../../lib/page-states';
import { usePayerStatement, usePayers } from '../api/payers';

export function StatementsPanel() {
  const { t } = useTranslation('billing');
  const payers = usePayers();
  const [payer, setPayer] = useState<string | null>(null);
  const [from, setFrom] = useState(dayjs().startOf('month').format('YYYY-MM-DD'));
  const [to, setTo] = useState(dayjs().format('YYYY-MM-DD'));
  const chosen = payer ?? payers.data?.results[0]?.id ?? null;
  const statement = usePayerStatement(chosen, from, to);

  return (
    <Stack gap="sm" data-testid="statements-panel">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('statements.payer')}
          w={280}
          data={(payers.data?.results ?? []).map((p) => ({
            value: p.id,
            label: `${p.name} (${t(`payerKinds.${p.kind}`)})`,
          }))}
          value={chosen}
          allowDeselect={false}
          onChange={setPayer}
          nothingFoundMessage={t('statements.noPayer')}
        />
        <DateFilter label={t('invoices.from')} value={from} onChange={setFrom} />
        <DateFilter label={t('invoices.to')} value={to} onChange={setTo} />
        <Button
          variant="default"
          leftSection={<IconPrinter size={16} />}
          onClick={() => window.print()}
          disabled={!statement.data}
          data-no-print
        >
          {t('print')}
        </Button>
      </Group>
      {payers.isError ? (
        <LoadError error={payers.error} onRetry={() => void payers.refetch()} />
      ) : payers.data && payers.data.results.length === 0 ? (
        <Text c="dimmed">{t('statements.noPayer')}</Text>
      ) : !from || !to ? (
        <Text c="dimmed">{t('statements.choosePeriod')}</Text>
      ) : to < from ? (
        <Text c="red">{t('statements.badPeriod')}</Text>
      ) : statement.isError ? (
        <LoadError error={statement.error} onRetry={() => void statement.refetch()} />
      ) : !statement.data ? (
        <Skeleton h={160} />
      ) : (
        <Paper withBorder radius="md" p="sm">
          <Group justify="space-between" mb="xs" wrap="wrap">
            <Text fw={600}>
              {statement.data.payer.name} —{' '}
              {t('statements.period', {
                from: formatDate(statement.data.from),
                to: formatDate(statement.data.to),
              })}
            </Text>
            <Text fw={700} data-testid="statement-total">
              {t('statements.total')} : {money(statement.data.total_payer_share, statement.data.currency)}
            </Text>
          </Group>
          {statement.data.lines.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('statements.empty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing={6} fz="sm" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('invoices.number')}</Table.Th>
                    <Table.Th>{t('statements.issued')}</Table.Th>
                    <Table.Th>{t('invoices.patient')}</Table.Th>
                    <Table.Th>{t('statements.member')}</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>{t('amounts.total')}</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>{t('amounts.payerShare')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {statement.data.lines.map((line) => (
                    <Table.Tr key={line.invoice}>
                      <Table.Td ff="monospace">{line.number}</Table.Td>
                      <Table.Td>{formatDate(line.issued_at)}</Table.Td>
                      <Table.Td>
                        {line.patient.full_name}
                        <Text size="xs" c="dimmed">
                          {line.patient.record_number}
                        </Text>
                      </Table.Td>
                      <Table.Td>{line.member_number ?? '—'}</Table.Td>
                      <Table.Td ff="monospace" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        {money(line.total, statement.data.currency)}
                      </Table.Td>
                      <Table.Td ff="monospace" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        {money(line.payer_share, statement.data.currency)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Paper>
      )}
    </Stack>
  );
}
