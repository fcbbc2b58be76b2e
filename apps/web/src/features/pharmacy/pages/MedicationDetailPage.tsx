/**
 * /pharmacy/medications/{id} (Fiche du médicament): the INN in both languages, ATC code, group, brands, allergy
 * classes, its presentations with the stock of each pharmacy (on hand, lots, nearest expiry), and the latest
 * movements of the ledger. A medicine that does not exist is the error page (generic texts).
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useMedication } from '../../../lib/clinical/api/medications';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import {
  medicationName,
  presentationLabel,
  routeLabel,
  unitLabel,
} from '../../../lib/clinical/components/prescription-format';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useMovementColumns } from '../components/MovementsTable';

export default function MedicationDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const query = useMedication(id);
  const movementColumns = useMovementColumns({ withMedication: false });

  if (query.isError && isApiError(query.error) && query.error.status === 404)
    return <Navigate to={to(`/error-404?${new URLSearchParams({ type: 'medication', id })}`)} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 220, 220]} testId="medication-loading" />;
  const m = query.data;

  return (
    <Stack gap="md">
      <div>
        <Group gap="xs">
          <Title order={2}>{medicationName(m, lang)}</Title>
          {m.atc_code && <Badge variant="outline">{m.atc_code}</Badge>}
          {m.essential && (
            <Badge color="teal" variant="light">
              {t('medications.essential')}
            </Badge>
          )}
        </Group>
        <Text c="dimmed">{lang === 'en' ? m.inn_fr : m.inn_en}</Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <DetailField label={t('medications.group')}>{lang === 'en' ? m.group_en : m.group_fr}</DetailField>
          <DetailField label={t('medications.brands')}>{m.brands.join(', ') || '—'}</DetailField>
          <DetailField label={t('medications.allergyClasses')}>
            {m.allergy_classes.length === 0 ? (
              '—'
            ) : (
              <Group gap={4}>
                {m.allergy_classes.map((c) => (
                  <Badge key={c} color="red" variant="light" size="sm">
                    {t(`allergyClasses.${c}`, { defaultValue: c })}
                  </Badge>
                ))}
              </Group>
            )}
          </DetailField>
        </SimpleGrid>
      </Paper>

      <Title order={3}>{t('medications.presentations')}</Title>
      <Stack gap="sm">
        {m.presentations.map((p) => {
          const stock = m.stock.filter((s) => s.presentation === p.id);
          return (
            <Paper key={p.id} withBorder radius="md" p="md" data-testid="presentation">
              <Group gap="xs" mb="xs">
                <Text fw={700}>{presentationLabel(p)}</Text>
                <Badge variant="outline" color="gray" size="sm">
                  {routeLabel(p.route)}
                </Badge>
                {p.paediatric && (
                  <Badge color="cyan" variant="light" size="sm">
                    {t('paediatric')}
                  </Badge>
                )}
                {!p.is_active && (
                  <Badge color="gray" size="sm">
                    {t('medications.inactive')}
                  </Badge>
                )}
              </Group>
              {stock.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('medications.noStock')}
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={420}>
                  <Table verticalSpacing={4}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('dispense.pharmacy')}</Table.Th>
                        <Table.Th>{t('stock.onHand')}</Table.Th>
                        <Table.Th>{t('stock.lots')}</Table.Th>
                        <Table.Th>{t('stock.nearestExpiry')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {stock.map((s) => (
                        <Table.Tr key={s.pharmacy.id}>
                          <Table.Td>{s.pharmacy.name}</Table.Td>
                          <Table.Td>
                            {s.on_hand} {unitLabel(p.unit, s.on_hand)}
                          </Table.Td>
                          <Table.Td>{s.lots}</Table.Td>
                          <Table.Td>{formatDate(s.nearest_expiry) || '—'}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Paper>
          );
        })}
      </Stack>

      <Title order={3}>{t('medications.recentMovements')}</Title>
      <Paper withBorder radius="md">
        <PagedTable
          data={{ results: m.recent_movements, count: m.recent_movements.length }}
          page={1}
          onPageChange={() => undefined}
          pageSize={Math.max(m.recent_movements.length, 1)}
          fetching={false}
          noRecordsText={t('movements.empty')}
          columns={movementColumns}
        />
      </Paper>
    </Stack>
  );
}
