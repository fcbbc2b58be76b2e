/**
 * The "Tiers payants" list of /billing (issue 21, decision 0036): the hospital's payers — insurers, mutual funds,
 * employers, free-care programmes — with the tariff their members are priced at and their share per act category.
 * Head doctors and administrators create and change them; the cash desk reads them (a patient's coverage is added on
 * the patient record).
 */
import type { TPayer } from '@greensen/shared/contracts/billing';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { payerShares } from '../../../lib/billing/PatientCoveragePanel';
import { money } from '../../../lib/money';
import { LoadError } from '../../../lib/page-states';
import { usePayers } from '../api/payers';
import { PayerFormModal } from './PayerFormModal';

export function PayersPanel({ canManage, currency }: { canManage: boolean; currency: string }) {
  const { t } = useTranslation(['billing', 'medical_acts']);
  const query = usePayers();
  const [editing, setEditing] = useState<TPayer | 'new' | null>(null);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={200} data-testid="payers-loading" />;
  const payers = query.data.results;
  return (
    <Stack gap="sm" data-testid="payers-panel">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('payers.intro')}
        </Text>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('payers.new')}
          </Button>
        )}
      </Group>
      {payers.length === 0 ? (
        <Alert color="gray">{t('payers.empty')}</Alert>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payers.name')}</Table.Th>
                  <Table.Th>{t('payers.kind')}</Table.Th>
                  <Table.Th>{t('payers.category')}</Table.Th>
                  <Table.Th>{t('payers.rules')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payers.map((p) => (
                  <Table.Tr key={p.id} data-testid="payer-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {p.name}
                      </Text>
                      <Group gap={6}>
                        <Text size="xs" c="dimmed">
                          {p.code}
                          {p.contact ? ` · ${p.contact}` : ''}
                        </Text>
                        {!p.is_active && (
                          <Badge size="xs" color="gray">
                            {t('payers.inactive')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{t(`payerKinds.${p.kind}`)}</Table.Td>
                    <Table.Td>{t(`medical_acts:payerCategories.${p.payer_category}`)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {p.rules.length > 0
                          ? payerShares(p, (c) => t(`medical_acts:categories.${c}`))
                          : t('coverage.noRule')}
                      </Text>
                      {p.rules.some((r) => r.ceiling !== null) && (
                        <Text size="xs" c="dimmed">
                          {p.rules
                            .filter((r) => r.ceiling !== null)
                            .map((r) =>
                              t('payers.ceilingOf', {
                                category: t(`medical_acts:categories.${r.category}`),
                                amount: money(r.ceiling, currency),
                              }),
                            )
                            .join(' · ')}
                        </Text>
                      )}
                      {(p.eligibility.max_age_years !== null || p.eligibility.sex !== null) && (
                        <Text size="xs" c="dimmed">
                          {[
                            p.eligibility.max_age_years !== null
                              ? t('payers.underAge', { count: p.eligibility.max_age_years })
                              : null,
                            p.eligibility.sex === 'F'
                              ? t('payers.female')
                              : p.eligibility.sex === 'M'
                                ? t('payers.male')
                                : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      {canManage && (
                        <Button
                          size="xs"
                          variant="subtle"
                          leftSection={<IconPencil size={14} />}
                          onClick={() => setEditing(p)}
                        >
                          {t('payers.edit')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {editing && (
        <PayerFormModal
          payer={editing === 'new' ? undefined : editing}
          currency={currency}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
