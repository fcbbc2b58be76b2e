/**
 * The orders of a stay (issue 37): every active order — medicines of signed prescriptions, care orders, exams —
 * written in the stay or in the consultation that opened it, whatever screen created it. The server's one
 * predicate "orders of this stay" (the MAR reads the same) decides which; the page only shows them.
 */
import type { TStayOrder } from '@greensen/shared/contracts/hospitalizations';
import type { PrescriptionStatus } from '@greensen/shared/contracts/pharmacy';
import type { ExamStatus } from '@greensen/shared/domain/exams';
import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconClipboardList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ExamStatusBadge } from '../../../lib/clinical/components/ExamBadges';
import { PrescriptionStatusBadge } from '../../../lib/clinical/components/PrescriptionBadges';
import { posologyText } from '../../../lib/clinical/components/prescription-format';
import { formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const KIND_COLORS: Record<TStayOrder['kind'], string> = { medication: 'blue', care: 'teal', exam: 'grape' };

function OrderStatus({ order }: { order: TStayOrder }) {
  if (order.kind === 'medication')
    return <PrescriptionStatusBadge status={order.status as PrescriptionStatus} size="xs" />;
  if (order.kind === 'exam') return <ExamStatusBadge status={order.status as ExamStatus} size="xs" />;
  return null;
}

export function StayOrdersPanel({ orders, stayId }: { orders: TStayOrder[]; stayId: string }) {
  const { t } = useTranslation('hospitalizations');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const link = (o: TStayOrder) =>
    o.kind === 'medication'
      ? to(`/pharmacy/prescriptions/${o.ref}`)
      : o.kind === 'exam'
        ? to(`/exams/${o.ref}`)
        : to(`/care?stay=${stayId}`);
  return (
    <Paper withBorder radius="md" p="md" data-testid="stay-orders">
      <Stack gap="sm">
        <Group gap={6}>
          <IconClipboardList size={18} />
          <Title order={4}>{t('detail.orders.title')}</Title>
        </Group>
        <Text size="xs" c="dimmed">
          {t('detail.orders.hint')}
        </Text>
        {orders.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('detail.orders.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing={6} striped>
              <Table.Tbody>
                {orders.map((o) => (
                  <Table.Tr key={`${o.kind}-${o.id}`} data-testid="stay-order">
                    <Table.Td w={1} style={{ whiteSpace: 'nowrap' }}>
                      <Badge
                        color={KIND_COLORS[o.kind]}
                        variant="light"
                        size="sm"
                        style={{ minWidth: 'max-content' }}
                      >
                        {t(`detail.orders.kinds.${o.kind}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={link(o)} size="sm" fw={600}>
                        {o.label}
                      </Anchor>
                      {o.kind === 'medication' && o.dose !== null && o.dose_unit && o.frequency && (
                        <Text size="xs" c="dimmed">
                          {posologyText(
                            {
                              dose: o.dose,
                              dose_unit: o.dose_unit,
                              frequency: o.frequency,
                              duration_days: null,
                            },
                            lang,
                          )}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {o.detail ? `${o.detail} · ` : ''}
                        {formatDateTime(o.at)}
                      </Text>
                    </Table.Td>
                    <Table.Td w={130}>
                      <OrderStatus order={o} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
