/**
 * Amounts as the UI shows them (issue 21): integer minor units formatted with the currency's ISO 4217 exponent in
 * the UI language by the shared rules (`1 500 F CFA`, `1 234,50 €`); never a floating-point division.
 */
import { formatMoney } from '@greensen/shared/domain/money';
import { uiLanguage } from './i18n';

export function money(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return '—';
  return formatMoney(amount, currency, uiLanguage());
}
