/**
 * The chunks of the registered home screens (app/home-screens.ts), each with the strings beyond the first screens'
 * (the pharmacy's, the cash desk's), as the pages beyond the dashboard wait for them. Also asked by path as the app
 * starts (app/page-prefetch.ts, issue 38): the same loader, so the same files.
 */
import { loadAllNamespaces } from '../lib/i18n';

export async function loadPharmacistHome() {
  const [loaded] = await Promise.all([
    import('../features/pharmacy/components/PharmacistHome'),
    loadAllNamespaces(),
  ]);
  return loaded;
}

export async function loadCashierHome() {
  const [loaded] = await Promise.all([
    import('../features/billing/components/CashierHome'),
    loadAllNamespaces(),
  ]);
  return loaded;
}
