/** A payment's method in words: "Espèces", "Mobile money · MTN MoMo". */
import type { MobileMoneyOperator, PaymentMethod } from '@greensen/shared/contracts/billing';
import { translate } from '../../../lib/i18n';

export function methodLabel(method: PaymentMethod, operator: MobileMoneyOperator | null): string {
  const name = translate(`billing:methods.${method}`);
  return operator ? `${name} · ${translate(`billing:operators.${operator}`)}` : name;
}
