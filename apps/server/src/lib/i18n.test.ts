import { describe, expect, it } from 'vitest';
import { defineMessages, translate } from './i18n.js';

defineMessages({
  'test.i18n.balance': {
    fr: 'Le montant dépasse le reste à payer ({balance}).',
    en: 'Above what is left ({balance}).',
  },
  'test.i18n.dose': {
    fr: '{value} mg au-delà du maximum de {limit} mg.',
    en: '{value} mg above the maximum of {limit} mg.',
  },
});

// Issue 37: a refusal printed "(3000)" — numbers and amounts in a message are written as the language writes them.
describe('translate: numbers and money in messages', () => {
  it('writes an amount of money with its currency and the language’s grouping', () => {
    expect(translate('fr', 'test.i18n.balance', { balance: { money: 3000, currency: 'XAF' } })).toBe(
      'Le montant dépasse le reste à payer (3\u202f000\u00a0FCFA).',
    );
    expect(translate('en', 'test.i18n.balance', { balance: { money: 3000, currency: 'XAF' } })).toBe(
      'Above what is left (FCFA\u00a03,000).',
    );
  });

  it('writes a number with the decimal comma in French and groups thousands', () => {
    expect(translate('fr', 'test.i18n.dose', { value: 62.5, limit: 3000 })).toBe(
      '62,5 mg au-delà du maximum de 3\u202f000 mg.',
    );
    expect(translate('en', 'test.i18n.dose', { value: 62.5, limit: 3000 })).toBe(
      '62.5 mg above the maximum of 3,000 mg.',
    );
  });

  it('leaves text as it is and a missing parameter as its placeholder', () => {
    expect(translate('fr', 'test.i18n.dose', { value: '1.5' })).toBe(
      '1.5 mg au-delà du maximum de {limit} mg.',
    );
  });
});
