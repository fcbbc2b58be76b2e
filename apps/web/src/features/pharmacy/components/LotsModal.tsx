/**
 * The lots of a presentation in a pharmacy: lot number, expiry (expired lots flagged), units on hand and unit
 * cost, nearest expiry first. Members correct a lot (adjustment with a reason, inventory count, expiry
 * write-off) or transfer units to another pharmacy.
 */
import type { TLot, TStockItem } from '@greensen/shared/contracts/pharmacy';
import { Badge, Button, Group, Modal, Skeleton, Table, Text } from '@mantine/core';
import { IconArrowsExchange, IconClipboardCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError } from '../../../lib/page-states';
import type { TPharmacy } from '../api/pharmacies';
import { useLots } from '../api/stock';
import { LotCorrectionModal, StockTransferModal } from './LotActions';

export function LotsModal({
  item,
  pharmacies,
  manage,
  onClose,
}: {
  item: TStockItem;
  pharmacies: readonly TPharmacy[];
  manage: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const query = useLots(item.pharmacy.id, item.presentation.id);
  const [correcting, setCorrecting] = useState<TLot | null>(null);
  const [moving, setMoving] = useState<TLot | null>(null);
  const lots = [...(query.data?.results ?? [])].sort((a, b) => a.expiry_date.localeCompare(b.expiry_date));

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={`${medicationName(item.medication, lang)} — ${presentationLabel(item.presentation)}`}
    >
      {query.isPending ? (
        <Skeleton h={120} />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : lots.length === 0 ? (
        <Text c="dimmed">{t('lots.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" data-testid="lots-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lots.number')}</Table.Th>
                <Table.Th>{t('lots.expiry')}</Table.Th>
                <Table.Th>{t('lots.onHand')}</Table.Th>
                <Table.Th>{t('lots.unitCost')}</Table.Th>
                {manage && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lots.map((lot) => (
                <Table.Tr key={lot.id}>
                  <Table.Td>{lot.lot_number}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {formatDate(lot.expiry_date)}
                      {lot.expired && (
                        <Badge color="dark" size="xs">
                          {t('flags.expired')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{lot.on_hand}</Table.Td>
                  <Table.Td>{lot.unit_cost ?? '—'}</Table.Td>
                  {manage && (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="light"
                          leftSection={<IconClipboardCheck size={12} />}
                          onClick={() => setCorrecting(lot)}
                        >
                          {t('correction.button')}
                        </Button>
                        {!lot.expired && pharmacies.length > 1 && (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            leftSection={<IconArrowsExchange size={12} />}
                            onClick={() => setMoving(lot)}
                          >
                            {t('transfer.button')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {correcting && <LotCorrectionModal lot={correcting} onClose={() => setCorrecting(null)} />}
      {moving && (
        <StockTransferModal
          lot={moving}
          pharmacies={pharmacies.filter((p) => p.id !== item.pharmacy.id)}
          onClose={() => setMoving(null)}
        />
      )}
    </Modal>
  );
}
