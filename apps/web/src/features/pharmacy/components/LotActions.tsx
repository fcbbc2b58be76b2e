/**
 * A member's writes on one lot: a correction — adjustment (signed quantity, with a reason), inventory (the
 * units counted), expiry write-off (Mise au rebut) — and a transfer of units to another pharmacy. Validated
 * with the contract, then the server's field errors as returned.
 */
import {
  type TLot,
  type TLotCorrection,
  ZLotCorrection,
  ZStockTransferCreate,
} from '@greensen/shared/contracts/pharmacy';
import { NumberInput, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import type { TPharmacy } from '../api/pharmacies';
import { useLotCorrection, useStockTransfer } from '../api/stock';

type CorrectionKind = TLotCorrection['kind'];

interface CorrectionValues {
  kind: CorrectionKind;
  quantity: number | string;
  counted: number | string;
  reason: string;
  [key: string]: unknown;
}

const num = (v: number | string) => (typeof v === 'number' ? v : undefined);

export function LotCorrectionModal({ lot, onClose }: { lot: TLot; onClose: () => void }) {
  const { t } = useTranslation('pharmacy');
  const form = useForm<CorrectionValues>({
    initialValues: {
      kind: lot.expired ? 'expiry_writeoff' : 'inventory',
      quantity: '',
      counted: lot.on_hand,
      reason: '',
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const correct = useLotCorrection();
  const { kind } = form.getValues();

  async function submit() {
    clear();
    const v = form.getValues();
    const reason = v.reason.trim() || null;
    const raw =
      v.kind === 'adjustment'
        ? { kind: v.kind, quantity: num(v.quantity), reason: v.reason }
        : v.kind === 'inventory'
          ? { kind: v.kind, counted: num(v.counted), reason }
          : { kind: v.kind, reason };
    const body = validateWith(ZLotCorrection, raw, form);
    if (!body) return;
    try {
      await correct.mutateAsync({ lot: lot.id, body });
      toast({ kind: 'success', title: t('correction.done'), description: lot.lot_number });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={t('correction.title', { lot: lot.lot_number })}
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('correction.onHand', { count: lot.on_hand })}
        </Text>
        <SegmentedControl
          fullWidth
          data={(['inventory', 'adjustment', 'expiry_writeoff'] as const).map((value) => ({
            value,
            label: t(`correction.kinds.${value}`),
          }))}
          {...form.getInputProps('kind')}
        />
        {kind === 'adjustment' && (
          <NumberInput
            label={t('correction.quantity')}
            description={t('correction.quantityHint')}
            withAsterisk
            allowDecimal={false}
            {...form.getInputProps('quantity')}
          />
        )}
        {kind === 'inventory' && (
          <NumberInput
            label={t('correction.counted')}
            withAsterisk
            min={0}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('counted')}
          />
        )}
        {kind === 'expiry_writeoff' && (
          <Text size="sm">{t('correction.writeoffHint', { count: lot.on_hand })}</Text>
        )}
        <Textarea
          label={t('correction.reason')}
          withAsterisk={kind === 'adjustment'}
          autosize
          minRows={2}
          {...form.getInputProps('reason')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('correction.submit')}
          loading={correct.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

export function StockTransferModal({
  lot,
  pharmacies,
  onClose,
}: {
  lot: TLot;
  /** The pharmacies the units may go to (not the lot's own). */
  pharmacies: readonly TPharmacy[];
  onClose: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const form = useForm<{ to_pharmacy: string | null; quantity: number | string; reason: string }>({
    initialValues: { to_pharmacy: null, quantity: '', reason: '' },
  });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const transfer = useStockTransfer();

  async function submit() {
    clear();
    const v = form.getValues();
    const body = validateWith(
      ZStockTransferCreate,
      {
        lot: lot.id,
        to_pharmacy: v.to_pharmacy ?? '',
        quantity: num(v.quantity),
        reason: v.reason.trim() || null,
      },
      form,
    );
    if (!body) return;
    try {
      await transfer.mutateAsync(body);
      toast({ kind: 'success', title: t('transfer.done'), description: lot.lot_number });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={t('transfer.title', { lot: lot.lot_number })}
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <Select
          label={t('transfer.to')}
          withAsterisk
          data={pharmacies.map((p) => ({ value: p.id, label: p.name }))}
          {...form.getInputProps('to_pharmacy')}
        />
        <NumberInput
          label={t('transfer.quantity')}
          description={t('correction.onHand', { count: lot.on_hand })}
          withAsterisk
          min={1}
          max={lot.on_hand}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('quantity')}
        />
        <Textarea label={t('transfer.reason')} autosize minRows={1} {...form.getInputProps('reason')} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('transfer.submit')}
          loading={transfer.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
