/**
 * /pharmacy (Pharmacie, issue 18): a pharmacy picker (the user's first) and the tabs À délivrer (the worklist of
 * signed prescriptions), Stock, Mouvements (the ledger), Alertes and, for the pharmacy's members, Entrée en stock
 * (a receipt). Only members see the write actions; the server checks the same. Tab and pharmacy are kept in the
 * address (`?tab=stock&pharmacy=…`).
 */
import { Button, Group, Stack, Tabs, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBook2,
  IconClipboardList,
  IconHistory,
  IconPackageImport,
  IconStack2,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DetailQueryState, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePharmacies } from '../api/pharmacies';
import { AlertsPanel } from '../components/AlertsPanel';
import { MovementsPanel } from '../components/MovementsPanel';
import { PharmacyPicker } from '../components/PharmacyPicker';
import { ReceiptForm } from '../components/ReceiptForm';
import { StockPanel } from '../components/StockPanel';
import { ToDispensePanel } from '../components/ToDispensePanel';

const TABS = ['dispense', 'stock', 'movements', 'alerts', 'receipt'] as const;
type Tab = (typeof TABS)[number];

export default function PharmacyPage() {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const [params, setParams] = useSearchParams();
  const query = usePharmacies();

  const header = (
    <PageHeader
      title={t('title')}
      subtitle={t('subtitle')}
      actions={
        <Button
          component={Link}
          to={to('/medications')}
          variant="default"
          leftSection={<IconBook2 size={18} />}
        >
          {t('medications.title')}
        </Button>
      }
    />
  );
  if (query.isPending || query.isError)
    return (
      <Stack gap="md">
        {header}
        <DetailQueryState query={query} blocks={[240]} testId="pharmacy-loading" />
      </Stack>
    );

  const pharmacies = query.data;
  const pharmacy = pharmacies.find((p) => p.id === params.get('pharmacy')) ?? pharmacies[0];
  const manager = can('pharmacy.manage');
  const manage = manager && Boolean(pharmacy?.member);
  const dispenser = manager && pharmacies.some((p) => p.member);
  const asked = params.get('tab') as Tab;
  const tab: Tab = TABS.includes(asked) && (asked !== 'receipt' || manage) ? asked : 'dispense';
  const set = (key: string, value: string | null, fallback: string) => {
    const next = new URLSearchParams(params);
    if (value && value !== fallback) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="md">
      {header}
      {!pharmacy ? (
        <Text c="dimmed">{t('picker.none')}</Text>
      ) : (
        <>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <PharmacyPicker
              pharmacies={pharmacies}
              value={pharmacy.id}
              onChange={(id) => set('pharmacy', id, pharmacies[0]?.id ?? '')}
            />
            {!manage && (
              <Text size="sm" c="dimmed" pb={6} data-testid="read-only-note">
                {t('picker.readOnly')}
              </Text>
            )}
          </Group>
          <Tabs value={tab} onChange={(value) => set('tab', value, 'dispense')} keepMounted={false}>
            <Tabs.List style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
              <Tabs.Tab value="dispense" leftSection={<IconClipboardList size={16} />}>
                {t('tabs.dispense')}
              </Tabs.Tab>
              <Tabs.Tab value="stock" leftSection={<IconStack2 size={16} />}>
                {t('tabs.stock')}
              </Tabs.Tab>
              <Tabs.Tab value="movements" leftSection={<IconHistory size={16} />}>
                {t('tabs.movements')}
              </Tabs.Tab>
              <Tabs.Tab value="alerts" leftSection={<IconAlertTriangle size={16} />}>
                {t('tabs.alerts')}
              </Tabs.Tab>
              {manage && (
                <Tabs.Tab value="receipt" leftSection={<IconPackageImport size={16} />}>
                  {t('tabs.receipt')}
                </Tabs.Tab>
              )}
            </Tabs.List>
            <Tabs.Panel value="dispense" pt="md">
              <ToDispensePanel manage={dispenser} />
            </Tabs.Panel>
            <Tabs.Panel value="stock" pt="md">
              <StockPanel key={pharmacy.id} pharmacy={pharmacy} pharmacies={pharmacies} manage={manage} />
            </Tabs.Panel>
            <Tabs.Panel value="movements" pt="md">
              <MovementsPanel key={pharmacy.id} pharmacy={pharmacy.id} />
            </Tabs.Panel>
            <Tabs.Panel value="alerts" pt="md">
              <AlertsPanel pharmacy={pharmacy.id} />
            </Tabs.Panel>
            {manage && (
              <Tabs.Panel value="receipt" pt="md">
                <ReceiptForm key={pharmacy.id} pharmacy={pharmacy} />
              </Tabs.Panel>
            )}
          </Tabs>
        </>
      )}
    </Stack>
  );
}
