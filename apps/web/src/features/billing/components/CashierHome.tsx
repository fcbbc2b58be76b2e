/**
 * The cashier's home (issue 37, decision 0070): the tabs of the "Caisse du jour" dashboard — the invoices waiting
 * to be paid (issued, the filter can be changed) and the cashier's cash session. The same panels as the billing
 * page's; its link opens the rest (statements, payers, rates).
 */
import { Alert, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useHospitalCurrency } from '../../../lib/billing/hospital-currency';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import { useBillingRights } from '../../../lib/billing/rights';
import { type HomeTabProps, useHomeRefresh } from '../../../lib/home-screens';
import { CashDeskPanel } from './CashDeskPanel';
import { InvoicesPanel } from './InvoicesPanel';

const REFRESHED = [BILLING_KEY];

export default function CashierHome({ tab, refreshInterval }: HomeTabProps) {
  const { t } = useTranslation('billing');
  const rights = useBillingRights();
  const currency = useHospitalCurrency();
  useHomeRefresh('cashier', REFRESHED, refreshInterval);
  if (!rights.ready) return <Skeleton h={200} m="md" />;
  // A cashier who works in no billing department: nothing to work on (the API would refuse).
  if (!rights.read)
    return (
      <Alert color="gray" m="md" data-testid="billing-not-staff">
        {t('notStaff')}
      </Alert>
    );
  return (
    <Stack gap="md" p="md" data-testid={`home-${tab}`}>
      {tab === 'cash-session' ? (
        <CashDeskPanel staff={rights.staff} currency={currency} />
      ) : (
        <InvoicesPanel staff={rights.staff} initialPatient={null} initialStatus="issued" />
      )}
    </Stack>
  );
}
