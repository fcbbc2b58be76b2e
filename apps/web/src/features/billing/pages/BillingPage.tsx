/**
 * /billing (Facturation, issue 21): the tabs Factures (invoices and credit notes), Caisse (the cashier's session and
 * the sessions' reports), Cautions (a stay's deposits, taken at the cash desk: `?tab=deposits`, decision 0088), Relevés (payer statements over a period) and Tiers payants (the payers). Billing staff — members of a billing
 * department — invoice visits and work the cash desk; the management reads everything. The tab is kept in the
 * address (`?tab=cash`, `?tab=payers`: the payers, created and changed by the management — decision 0036; `?tab=rates`: the exchange rates, decision 0040); `?patient=` filters the invoices on a patient (the patient record's link).
 */
import { Alert, Skeleton, Stack, Tabs } from '@mantine/core';
import {
  IconArrowsExchange,
  IconBuildingBank,
  IconCashRegister,
  IconCoin,
  IconFileInvoice,
  IconShieldCheck,
} from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useHospitalCurrency } from '../../../lib/billing/hospital-currency';
import { useBillingRights } from '../../../lib/billing/rights';
import { PageHeader } from '../../../lib/page-states';
import { PrintStyles } from '../../../lib/print-styles';
import { InvoicesPanel } from '../components/InvoicesPanel';
import { billingTab } from './billing-first';

// The invoices are the first screen; the other tabs' chunks come when opened (issue 38).
const CashDeskPanel = lazy(() =>
  import('../components/CashDeskPanel').then((m) => ({ default: m.CashDeskPanel })),
);
const DepositsPanel = lazy(() =>
  import('../components/DepositsPanel').then((m) => ({ default: m.DepositsPanel })),
);
const StatementsPanel = lazy(() =>
  import('../components/StatementsPanel').then((m) => ({ default: m.StatementsPanel })),
);
const PayersPanel = lazy(() => import('../components/PayersPanel').then((m) => ({ default: m.PayersPanel })));
const RatesPanel = lazy(() => import('../components/RatesPanel').then((m) => ({ default: m.RatesPanel })));

/** A tab's panel while its chunk comes. */
const tabLoading = <Skeleton h={240} data-testid="billing-tab-loading" />;

export default function BillingPage() {
  const { t } = useTranslation('billing');
  const rights = useBillingRights();
  const currency = useHospitalCurrency();
  const [params, setParams] = useSearchParams();
  const tab = billingTab(params);

  // Outside the billing departments and the management: nothing to read here (the API would refuse).
  if (!rights.ready || !rights.read)
    return (
      <Stack gap="md">
        <PageHeader title={t('title')} subtitle={t('subtitle')} />
        {rights.ready ? (
          <Alert color="gray" data-testid="billing-not-staff">
            {t('notStaff')}
          </Alert>
        ) : (
          <Skeleton h={240} data-testid="billing-loading" />
        )}
      </Stack>
    );

  return (
    <Stack gap="md">
      <PrintStyles />
      <PageHeader title={t('title')} subtitle={rights.staff ? t('subtitleStaff') : t('subtitle')} />
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => {
          const next = new URLSearchParams(params);
          if (value && value !== 'invoices') next.set('tab', value);
          else next.delete('tab');
          setParams(next, { replace: true });
        }}
      >
        <Tabs.List style={{ overflowX: 'auto', flexWrap: 'nowrap' }} data-no-print>
          <Tabs.Tab value="invoices" leftSection={<IconFileInvoice size={16} />}>
            {t('tabs.invoices')}
          </Tabs.Tab>
          <Tabs.Tab value="cash" leftSection={<IconCashRegister size={16} />}>
            {t('tabs.cash')}
          </Tabs.Tab>
          <Tabs.Tab value="deposits" leftSection={<IconCoin size={16} />}>
            {t('tabs.deposits')}
          </Tabs.Tab>
          <Tabs.Tab value="statements" leftSection={<IconShieldCheck size={16} />}>
            {t('tabs.statements')}
          </Tabs.Tab>
          <Tabs.Tab value="payers" leftSection={<IconBuildingBank size={16} />}>
            {t('tabs.payers')}
          </Tabs.Tab>
          <Tabs.Tab value="rates" leftSection={<IconArrowsExchange size={16} />}>
            {t('tabs.rates')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="invoices" pt="md">
          <InvoicesPanel staff={rights.staff} initialPatient={params.get('patient')} />
        </Tabs.Panel>
        <Tabs.Panel value="cash" pt="md">
          <Suspense fallback={tabLoading}>
            <CashDeskPanel staff={rights.staff} currency={currency} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="deposits" pt="md">
          <Suspense fallback={tabLoading}>
            <DepositsPanel staff={rights.staff} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="statements" pt="md">
          <Suspense fallback={tabLoading}>
            <StatementsPanel />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="payers" pt="md">
          <Suspense fallback={tabLoading}>
            <PayersPanel canManage={rights.manage} currency={currency} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="rates" pt="md">
          {tab === 'rates' && (
            <Suspense fallback={tabLoading}>
              <RatesPanel canManage={rights.manage} currency={currency} />
            </Suspense>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
