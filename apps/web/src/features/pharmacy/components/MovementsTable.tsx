/**
 * Ledger rows (append-only): when, kind, medicine and presentation, lot, signed quantity, reference (delivery
 * note, prescription), reason and who. Used by the pharmacy's Mouvements tab and the medication's page.
 */
import type { TMovement } from '@greensen/shared/contracts/pharmacy';
import { Anchor, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { formatDate, formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { MovementKindBadge, SignedQuantity } from './StockBadges';

export function useMovementColumns({ withMedication = true } = {}): DataTableColumn<TMovement>[] {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const columns: (DataTableColumn<TMovement> | null)[] = [
    { accessor: 'at', title: t('movements.at'), render: (m) => formatDateTime(m.at) },
    { accessor: 'kind', title: t('movements.kind'), render: (m) => <MovementKindBadge kind={m.kind} /> },
    withMedication
      ? {
          accessor: 'medication',
          title: t('columns.medication'),
          render: (m) => (
            <div>
              <Anchor component={Link} to={to(`/pharmacy/medications/${m.medication.id}`)} size="sm" fw={600}>
                {medicationName(m.medication, lang)}
              </Anchor>
              <Text size="xs" c="dimmed">
                {presentationLabel(m.presentation)}
              </Text>
            </div>
          ),
        }
      : null,
    {
      accessor: 'lot',
      title: t('lots.number'),
      render: (m) => (
        <div>
          <Text size="sm">{m.lot.lot_number}</Text>
          <Text size="xs" c="dimmed">
            {formatDate(m.lot.expiry_date)}
          </Text>
        </div>
      ),
    },
    {
      accessor: 'quantity',
      title: t('movements.quantity'),
      render: (m) => <SignedQuantity value={m.quantity} />,
    },
    {
      accessor: 'reference',
      title: t('movements.reference'),
      render: (m) =>
        m.prescription ? (
          <Anchor component={Link} to={to(`/pharmacy/prescriptions/${m.prescription}`)} size="sm">
            {m.reference ?? t('movements.prescription')}
          </Anchor>
        ) : (
          (m.reference ?? '—')
        ),
    },
    { accessor: 'reason', title: t('movements.reason'), render: (m) => m.reason ?? '—' },
    { accessor: 'by', title: t('movements.by'), render: (m) => m.by.full_name },
  ];
  return columns.filter((c): c is DataTableColumn<TMovement> => c !== null);
}
