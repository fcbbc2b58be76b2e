/**
 * The cash forms' amount tendered in tests (issue 37, decision 0079): the payment dialog and the stay's deposit form
 * share « Rendre la monnaie » / « Montant reçu » (`lib/billing/PaymentFields.tsx`), and their tests the short case.
 */
import { within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

/** "2 500 F CFA" whatever the spaces Intl puts (narrow no-break, no-break). */
export const xof = (text: string) => new RegExp(text.replace(/ /g, '\\s'));

/**
 * In a cash form whose amount is `amount` (as shown, "7 500 F CFA"), opens « Montant reçu » with « Rendre la
 * monnaie », types `short` below it: the red line and no change; « Encaisser » is refused before sending. Returns the
 * field.
 */
export async function tenderShort(
  user: UserEvent,
  form: HTMLElement,
  short: string,
  amount: string,
): Promise<HTMLElement> {
  expect(within(form).queryByLabelText('Montant reçu')).toBeNull();
  await user.click(within(form).getByRole('switch', { name: 'Rendre la monnaie' }));
  const tendered = within(form).getByLabelText('Montant reçu');
  await user.type(tendered, short);
  expect(within(form).getByTestId('tendered-short')).toHaveTextContent(
    xof(`Le montant reçu ne couvre pas le montant à encaisser \\(${amount}\\)`),
  );
  expect(within(form).queryByTestId('change-due')).toBeNull();
  await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
  expect(
    await within(form).findByText('Le montant reçu est inférieur au montant à encaisser.'),
  ).toBeInTheDocument();
  return tendered;
}
