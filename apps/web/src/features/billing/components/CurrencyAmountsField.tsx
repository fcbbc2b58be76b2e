/**
 * Amounts per currency (a cash float, the cash counted at closing): one row per currency, the hospital's first;
 * others can be added. The text of each amount is read by `readCurrencyAmounts` into minor units (French decimal
 * comma accepted, never a float).
 */
import { COMMON_CURRENCIES } from '@greensen/shared/contracts/structure';
import { parseMoney } from '@greensen/shared/domain/money';
import { ActionIcon, Button, Group, Select, Stack } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../../lib/money-input';

export interface CurrencyRow {
  currency: string;
  amount: string;
}

/** The rows as `{currency, amount}` in minor units; the index of the first unreadable amount otherwise. */
export function readCurrencyAmounts(
  rows: readonly CurrencyRow[],
): { ok: true; amounts: { currency: string; amount: number }[] } | { ok: false; index: number } {
  const amounts: { currency: string; amount: number }[] = [];
  for (const [index, row] of rows.entries()) {
    const amount = row.amount.trim() === '' ? 0 : parseMoney(row.amount, row.currency);
    if (amount === null || amount < 0) return { ok: false, index };
    amounts.push({ currency: row.currency, amount });
  }
  return { ok: true, amounts };
}

export function CurrencyAmountsField({
  rows,
  onChange,
  label,
  errors,
  fixedCurrencies = 1,
  testId,
}: {
  rows: CurrencyRow[];
  onChange: (rows: CurrencyRow[]) => void;
  /** The label of an amount, given its currency. */
  label: (currency: string) => string;
  /** Error per row index. */
  errors?: Record<number, string>;
  /** The first rows whose currency cannot change or be removed. */
  fixedCurrencies?: number;
  testId?: string;
}) {
  const { t } = useTranslation('billing');
  const used = new Set(rows.map((row) => row.currency));
  const free = COMMON_CURRENCIES.filter((currency) => !used.has(currency));
  const set = (index: number, change: Partial<CurrencyRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Stack gap="xs" data-testid={testId}>
      {rows.map((row, index) => (
        <Group key={row.currency} gap="xs" align="flex-end" wrap="nowrap">
          {index >= fixedCurrencies && (
            <Select
              aria-label={t('cash.currency')}
              w={100}
              data={[row.currency, ...free]}
              value={row.currency}
              allowDeselect={false}
              onChange={(value) => value && set(index, { currency: value })}
            />
          )}
          <MoneyInput
            label={label(row.currency)}
            currency={row.currency}
            value={row.amount}
            error={errors?.[index]}
            onChange={(amount) => set(index, { amount })}
            style={{ flex: 1 }}
          />
          {index >= fixedCurrencies && (
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              mb={errors?.[index] ? 22 : 0}
              aria-label={t('cash.removeCurrency', { currency: row.currency })}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {free.length > 0 && (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => onChange([...rows, { currency: free[0] ?? 'EUR', amount: '' }])}
        >
          {t('cash.addCurrency')}
        </Button>
      )}
    </Stack>
  );
}
