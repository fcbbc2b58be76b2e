/** The reorder level of a presentation in a pharmacy (empty: no level): below it the item is "low". */
import type { TStockItem } from '@greensen/shared/contracts/pharmacy';
import { ZReorderLevel } from '@greensen/shared/contracts/pharmacy';
import { NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useReorderLevel } from '../api/stock';

export function ReorderLevelModal({ item, onClose }: { item: TStockItem; onClose: () => void }) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const form = useForm<{ level: number | string }>({ initialValues: { level: item.reorder_level ?? '' } });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const save = useReorderLevel();

  async function submit() {
    clear();
    const level = form.getValues().level;
    const body = validateWith(
      ZReorderLevel,
      {
        pharmacy: item.pharmacy.id,
        presentation: item.presentation.id,
        level: typeof level === 'number' ? level : null,
      },
      form,
    );
    if (!body) return;
    try {
      await save.mutateAsync(body);
      toast({ kind: 'success', title: t('reorder.done') });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('reorder.title')} onSubmit={() => void submit()}>
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {medicationName(item.medication, lang)} — {presentationLabel(item.presentation)}
        </Text>
        <NumberInput
          label={t('stock.reorderLevel')}
          description={t('reorder.hint')}
          min={0}
          allowDecimal={false}
          allowNegative={false}
          data-autofocus
          {...form.getInputProps('level')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('common:actions.save')}
          loading={save.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
