/**
 * The home screens registered for the dashboard page (lib/home-screens.ts; decision 0070): the pharmacist's tabs
 * from the pharmacy feature, the cashier's from billing. Imported once by the route table. Each waits for the
 * strings beyond the first screens' (the pharmacy's, the cash desk's), as the pages beyond the dashboard do
 * (app/home-screen-loaders.ts).
 */
import { registerHomeScreen } from '../lib/home-screens';
import { loadCashierHome, loadPharmacistHome } from './home-screen-loaders';

registerHomeScreen('pharmacist', loadPharmacistHome);
registerHomeScreen('cashier', loadCashierHome);
