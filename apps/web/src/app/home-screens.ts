/**
 * The home screens registered for the dashboard page (lib/home-screens.ts; decision 0070): the pharmacist's tabs
 * from the pharmacy feature, the cashier's from billing. Imported once by the route table. Each waits for the
 * strings beyond the first screens' (the pharmacy's, the cash desk's), as the pages beyond the dashboard do.
 */
import { registerHomeScreen } from '../lib/home-screens';
import { loadAllNamespaces } from '../lib/i18n';

registerHomeScreen('pharmacist', async () => {
  const [loaded] = await Promise.all([
    import('../features/pharmacy/components/PharmacistHome'),
    loadAllNamespaces(),
  ]);
  return loaded;
});
registerHomeScreen('cashier', async () => {
  const [loaded] = await Promise.all([
    import('../features/billing/components/CashierHome'),
    loadAllNamespaces(),
  ]);
  return loaded;
});
