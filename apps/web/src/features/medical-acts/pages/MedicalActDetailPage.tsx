/**
 * /medical-acts/{id} (issue 21): the act — code, labels, category, active, what it is derived from — today's price
 * per payer category and every tariff with its validity (past ones stay: a price change never rewrites an
 * invoice). The management edits the act and sets a new price from a date. A missing act is the error page of
 * type `medical-act` (the API client's redirect on the 404; a malformed id goes there directly).
 */
import { PAYER_CATEGORIES, type PayerCategory, type TTariff } from '@greensen/shared/contracts/medical-acts';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { actLabel } from '../../../lib/billing/act-format';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { money } from '../../../lib/money';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useMedicalAct } from '../api/get-medical-act';
import { ActCategoryBadge } from '../components/ActCategoryBadge';
import { ActFormModal } from '../components/ActFormModal';
import { TariffAmount, tariffOf } from '../components/TariffCells';
import { TariffModal } from '../components/TariffModal';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function medicalActNotFoundPath(id: string): string {
  return `/error-404?${new URLSearchParams({ type: 'medical-act', id }).toString()}`;
}

function isCurrent(tariff: TTariff, today: string): boolean {
  return tariff.valid_from <= today && (tariff.valid_to === null || tariff.valid_to >= today);
}

export default function MedicalActDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('medical_acts');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const { can } = usePermissions();
  const valid = UUID_RE.test(id);
  const query = useMedicalAct(id, valid);
  const [editing, setEditing] = useState(false);
  const [pricing, setPricing] = useState<{ category?: PayerCategory } | null>(null);

  if (!valid) return <Navigate to={to(medicalActNotFoundPath(id))} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 240]} testId="medical-act-loading" />;

  const act = query.data;
  const manage = can('medical_act.manage');
  const currency = act.tariffs[0]?.currency ?? act.current_tariffs[0]?.currency ?? 'XOF';
  const today = dayjs().format('YYYY-MM-DD');

  return (
    <Stack gap="md" data-testid="medical-act-page">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2}>{actLabel(act, lang)}</Title>
            <ActCategoryBadge category={act.category} />
            {!act.is_active && (
              <Badge color="gray" variant="filled">
                {t('inactive')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed">
            <Text span ff="monospace" fw={700} c="var(--mantine-color-text)">
              {act.code}
            </Text>{' '}
            · {lang === 'en' ? act.label_fr : act.label_en}
          </Text>
        </div>
        {manage && (
          <Group gap="xs">
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEditing(true)}>
              {t('actions.edit')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setPricing({})}>
              {t('tariffs.new')}
            </Button>
          </Group>
        )}
      </Group>

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          {PAYER_CATEGORIES.map((category) => (
            <DetailField key={category} label={t(`payerCategories.${category}`)}>
              <Group gap={6} wrap="nowrap">
                <TariffAmount tariff={tariffOf(act.current_tariffs, category)} />
                {manage && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    aria-label={t('tariffs.changeFor', { category: t(`payerCategories.${category}`) })}
                    onClick={() => setPricing({ category })}
                  >
                    {t('tariffs.change')}
                  </Button>
                )}
              </Group>
            </DetailField>
          ))}
        </SimpleGrid>
        {(act.auto_source || act.exam) && (
          <Text size="sm" c="dimmed" mt="md">
            {act.auto_source ? t(`autoSources.${act.auto_source}`) : ''}
            {act.exam ? t('billsExam', { exam: act.exam.name }) : ''}
          </Text>
        )}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          {t('tariffs.history')}
        </Title>
        {act.tariffs.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('tariffs.none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tariffs.payerCategory')}</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>{t('tariffs.price')}</Table.Th>
                  <Table.Th>{t('tariffs.validFrom')}</Table.Th>
                  <Table.Th>{t('tariffs.validTo')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {act.tariffs.map((tariff) => (
                  <Table.Tr key={tariff.id} data-testid="tariff-row">
                    <Table.Td>{t(`payerCategories.${tariff.payer_category}`)}</Table.Td>
                    <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }} ff="monospace">
                      {money(tariff.price, tariff.currency)}
                    </Table.Td>
                    <Table.Td>{formatDate(tariff.valid_from)}</Table.Td>
                    <Table.Td>{tariff.valid_to ? formatDate(tariff.valid_to) : t('tariffs.open')}</Table.Td>
                    <Table.Td>
                      {isCurrent(tariff, today) ? (
                        <Badge size="sm" color="green" variant="light">
                          {t('tariffs.current')}
                        </Badge>
                      ) : tariff.valid_from > today ? (
                        <Badge size="sm" color="blue" variant="light">
                          {t('tariffs.future')}
                        </Badge>
                      ) : (
                        <Badge size="sm" color="gray" variant="light">
                          {t('tariffs.past')}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>

      {editing && <ActFormModal act={act} currency={currency} onClose={() => setEditing(false)} />}
      {pricing && (
        <TariffModal
          act={act}
          currency={currency}
          category={pricing.category}
          onClose={() => setPricing(null)}
        />
      )}
    </Stack>
  );
}
