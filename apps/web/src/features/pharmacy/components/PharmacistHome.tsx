/**
 * The pharmacist's home (issue 37, decision 0070): the tabs of the "Pharmacie du jour" dashboard — the dispensing
 * queue (urgent prescriptions first, as the server orders the worklist), the stock alerts and the expiries of the
 * user's pharmacy. The same panels as the pharmacy page's; the page's link opens the rest (stock, ledger, receipts).
 */
import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PHARMACY_STOCK_KEY, PRESCRIPTIONS_KEY } from '../../../lib/clinical/api/prescriptions';
import { type HomeTabProps, useHomeRefresh } from '../../../lib/home-screens';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePharmacies } from '../api/pharmacies';
import { AlertsPanel } from './AlertsPanel';
import { ToDispensePanel } from './ToDispensePanel';

const REFRESHED = [PRESCRIPTIONS_KEY, PHARMACY_STOCK_KEY];

export default function PharmacistHome({ tab, refreshInterval }: HomeTabProps) {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const query = usePharmacies();
  useHomeRefresh('pharmacist', REFRESHED, refreshInterval);
  if (query.isPending) return <Skeleton h={200} m="md" />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  // The user's pharmacies come first: the home shows the first one's alerts.
  const pharmacy = query.data[0];
  const dispenser = can('pharmacy.manage') && query.data.some((p) => p.member);
  return (
    <Stack gap="md" p="md" data-testid={`home-${tab}`}>
      {tab !== 'to-dispense' && pharmacy && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{pharmacy.name}</Text>
          <Anchor component={Link} to={to(`/pharmacy?tab=stock&pharmacy=${pharmacy.id}`)} size="sm">
            {t('home.openStock')}
          </Anchor>
        </Group>
      )}
      {tab === 'to-dispense' && <ToDispensePanel manage={dispenser} />}
      {tab !== 'to-dispense' &&
        (pharmacy ? (
          <AlertsPanel pharmacy={pharmacy.id} only={tab === 'expiries' ? 'expiries' : 'stock'} />
        ) : (
          <Text c="dimmed">{t('picker.none')}</Text>
        ))}
    </Stack>
  );
}
