/** The currencies a cashier may pick for a float, a count or a payment (besides the hospital's own). */
export const PICKER_CURRENCIES = ['XOF', 'XAF', 'GNF', 'CDF', 'GHS', 'NGN', 'EUR', 'USD'] as const;
