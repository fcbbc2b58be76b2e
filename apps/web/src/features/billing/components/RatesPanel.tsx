/**
 * "Taux de change" of /billing (decision 0040): the rate in force today for each currency, in the hospital's
 * currency, and the history of the rates set (who, when, from which day). Head doctors and administrators set a
 * currency's rate from a day; a correction is a new rate of the same day (the newest wins, the history stays). A
 * payment in another currency takes the rate of its day from this table unless the cashier types one.
 */
import { ZExchangeRateCreate } from '@greensen/shared/contracts/billing';
import { COMMON_CURRENCIES } from '@greensen/shared/contracts/structure';
import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { LoadError } from '../../../lib/page-states';
import { validateWith } from '../../../lib/zod-form';
import { useCurrentRates, useRateHistory, useSetRate } from '../api/exchange-rates';

/** A rate as stored (`655.957`) in the UI's writing (`655,957` in French). */
export const rateText = (rate: string, lang: string) => (lang === 'fr' ? rate.replace('.', ',') : rate);

function RateFormModal({ currency, onClose }: { currency: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('billing');
  const save = useSetRate();
  const form = useForm({
    initialValues: {
      base: COMMON_CURRENCIES.find((c) => c !== currency) ?? 'EUR',
      rate: '',
      valid_on: new Date().toISOString().slice(0, 10),
      note: '',
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('rates.failed'));
  const v = form.getValues();

  async function submit() {
    clear();
    const body = validateWith(
      ZExchangeRateCreate,
      {
        base: v.base,
        rate: v.rate.trim().replace(/\s/g, '').replace(',', '.'),
        valid_on: v.valid_on,
        note: v.note.trim() || null,
      },
      form,
    );
    if (!body) return;
    try {
      await save.mutateAsync(body);
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('rates.new')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="rate-form">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('rates.base')}
            required
            allowDeselect={false}
            data={COMMON_CURRENCIES.filter((c) => c !== currency)}
            {...form.getInputProps('base')}
          />
          <TextInput
            label={t('rates.rate', { quote: currency })}
            placeholder={rateText('655.957', i18n.language)}
            required
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('rate')}
          />
        </SimpleGrid>
        <DateField label={t('rates.validOn')} required {...form.getInputProps('valid_on')} />
        <TextInput label={t('rates.note')} {...form.getInputProps('note')} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('rates.save')}
          loading={save.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

export function RatesPanel({ canManage, currency }: { canManage: boolean; currency: string }) {
  const { t, i18n } = useTranslation('billing');
  const current = useCurrentRates();
  const history = useRateHistory();
  const [adding, setAdding] = useState(false);
  if (current.isError) return <LoadError error={current.error} onRetry={() => void current.refetch()} />;
  if (history.isError) return <LoadError error={history.error} onRetry={() => void history.refetch()} />;
  if (current.isPending || history.isPending) return <Skeleton h={200} data-testid="rates-loading" />;
  return (
    <Stack gap="sm" data-testid="rates-panel">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('rates.intro', { quote: currency })}
        </Text>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('rates.new')}
          </Button>
        )}
      </Group>
      {current.data.rates.length === 0 ? (
        <Alert color="gray">{t('rates.empty')}</Alert>
      ) : (
        <Group gap="md" data-testid="rates-current">
          {current.data.rates.map((r) => (
            <Paper key={r.id} withBorder radius="md" p="sm">
              <Text size="sm" fw={600}>
                {t('rates.line', { base: r.base, rate: rateText(r.rate, i18n.language), quote: r.quote })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('rates.since', { date: formatDate(r.valid_on) })}
              </Text>
            </Paper>
          ))}
        </Group>
      )}
      {history.data.results.length > 0 && (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('rates.validOn')}</Table.Th>
                  <Table.Th>{t('rates.pair')}</Table.Th>
                  <Table.Th>{t('rates.setBy')}</Table.Th>
                  <Table.Th>{t('rates.note')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.results.map((r) => (
                  <Table.Tr key={r.id} data-testid="rate-row">
                    <Table.Td>{formatDate(r.valid_on)}</Table.Td>
                    <Table.Td>
                      {t('rates.line', {
                        base: r.base,
                        rate: rateText(r.rate, i18n.language),
                        quote: r.quote,
                      })}
                    </Table.Td>
                    <Table.Td>
                      {r.set_by.full_name}
                      <Text size="xs" c="dimmed">
                        {formatDateTime(r.created_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{r.note ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {adding && <RateFormModal currency={currency} onClose={() => setAdding(false)} />}
    </Stack>
  );
}
