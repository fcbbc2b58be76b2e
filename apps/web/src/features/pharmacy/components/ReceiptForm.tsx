/**
 * The Entrée en stock tab (members): a receipt from a supplier with its delivery note and several lines —
 * presentation (medicine search, then presentation), lot number, expiry date, quantity, unit cost. Validated
 * with the contract (ZReceiptCreate); the server's field errors as returned; the form is emptied after success.
 */
import { type TMedication, ZReceiptCreate } from '@greensen/shared/contracts/pharmacy';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPackageImport, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AddLineButton } from '../../../lib/clinical/components/AddLineButton';
import { MedicationSearch } from '../../../lib/clinical/components/MedicationSearch';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import type { TPharmacy } from '../api/pharmacies';
import { useReceipt } from '../api/stock';
import { today } from './fefo';

interface ReceiptLine {
  key: string;
  medication: TMedication | null;
  presentation: string | null;
  lot_number: string;
  expiry_date: string;
  quantity: number | string;
  unit_cost: number | string;
}

interface ReceiptValues {
  supplier: string;
  delivery_note: string;
  lines: ReceiptLine[];
  [key: string]: unknown;
}

let keys = 0;
const newLine = (): ReceiptLine => ({
  key: `receipt-${++keys}`,
  medication: null,
  presentation: null,
  lot_number: '',
  expiry_date: '',
  quantity: '',
  unit_cost: '',
});
const empty = (): ReceiptValues => ({ supplier: '', delivery_note: '', lines: [newLine()] });
const num = (v: number | string) => (typeof v === 'number' ? v : undefined);

export function ReceiptForm({ pharmacy }: { pharmacy: TPharmacy }) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const form = useForm<ReceiptValues>({ initialValues: empty() });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const receive = useReceipt();
  const values = form.getValues();

  async function submit() {
    clear();
    const v = form.getValues();
    const body = validateWith(
      ZReceiptCreate,
      {
        pharmacy: pharmacy.id,
        supplier: v.supplier,
        delivery_note: v.delivery_note,
        lines: v.lines.map((line) => ({
          presentation: line.presentation ?? '',
          lot_number: line.lot_number,
          expiry_date: line.expiry_date,
          quantity: num(line.quantity),
          unit_cost: num(line.unit_cost) ?? null,
        })),
      },
      form,
    );
    if (!body) return;
    try {
      const result = await receive.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('receipt.done'),
        description: t('receipt.doneLots', { count: result.lots.length, note: body.delivery_note }),
      });
      form.setValues(empty());
      form.resetDirty();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm" data-testid="receipt-form">
        <Text size="sm" c="dimmed">
          {t('receipt.hint', { pharmacy: pharmacy.name })}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('receipt.supplier')} withAsterisk {...form.getInputProps('supplier')} />
          <TextInput
            label={t('receipt.deliveryNote')}
            withAsterisk
            {...form.getInputProps('delivery_note')}
          />
        </SimpleGrid>
        {values.lines.map((line, index) => {
          const path = `lines.${index}`;
          return (
            <Paper key={line.key} withBorder radius="md" p="sm" data-testid="receipt-line">
              <Stack gap="xs">
                <Group justify="space-between" align="flex-end" wrap="nowrap">
                  {line.medication ? (
                    <Select
                      label={`${t('form.presentation')} — ${medicationName(line.medication, lang)}`}
                      withAsterisk
                      allowDeselect={false}
                      style={{ flex: 1 }}
                      data={line.medication.presentations.map((p) => ({
                        value: p.id,
                        label: presentationLabel(p),
                      }))}
                      {...form.getInputProps(`${path}.presentation`)}
                    />
                  ) : (
                    <div style={{ flex: 1 }}>
                      <MedicationSearch
                        withAsterisk
                        error={form.errors[`${path}.presentation`] as string | undefined}
                        onPick={(medication) => {
                          form.setFieldValue(`${path}.medication`, medication);
                          form.setFieldValue(`${path}.presentation`, medication.presentations[0]?.id ?? null);
                        }}
                      />
                    </div>
                  )}
                  {values.lines.length > 1 && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('form.removeLine', { number: index + 1 })}
                      onClick={() => form.removeListItem('lines', index)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
                <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="xs">
                  <TextInput
                    label={t('lots.number')}
                    withAsterisk
                    {...form.getInputProps(`${path}.lot_number`)}
                  />
                  <DateField
                    label={t('lots.expiry')}
                    withAsterisk
                    min={today()}
                    {...form.getInputProps(`${path}.expiry_date`)}
                  />
                  <NumberInput
                    label={t('receipt.quantity')}
                    withAsterisk
                    min={1}
                    allowDecimal={false}
                    allowNegative={false}
                    {...form.getInputProps(`${path}.quantity`)}
                  />
                  <NumberInput
                    label={t('lots.unitCost')}
                    min={0}
                    decimalScale={2}
                    allowNegative={false}
                    {...form.getInputProps(`${path}.unit_cost`)}
                  />
                </SimpleGrid>
              </Stack>
            </Paper>
          );
        })}
        <AddLineButton
          onAdd={() => form.insertListItem('lines', newLine())}
          count={values.lines.length}
          max={200}
        />
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={receive.isPending} leftSection={<IconPackageImport size={16} />}>
            {t('receipt.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
