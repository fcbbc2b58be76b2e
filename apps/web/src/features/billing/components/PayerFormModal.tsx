/**
 * A payer's form (issue 21, decision 0036): code, name, kind (insurer, mutual fund, employer, free-care
 * programme), the tariff its members are priced at, a contact, active or not, its share per act category (rate and
 * ceiling per invoice) and, for a programme, who it covers (under an age, a sex). Head doctors and administrators
 * only (`billing.manage`).
 */
import {
  BILLING_CATEGORIES,
  PAYER_KINDS,
  type PayerKind,
  type TPayer,
  ZPayerCreate,
} from '@greensen/shared/contracts/billing';
import { PAYER_CATEGORIES } from '@greensen/shared/contracts/medical-acts';
import { minorToDecimal, parseMoney } from '@greensen/shared/domain/money';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { MoneyInput } from '../../../lib/money-input';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreatePayer, useUpdatePayer } from '../api/save-payer';

type PayerCategory = (typeof PAYER_CATEGORIES)[number];
type Category = (typeof BILLING_CATEGORIES)[number];

/** A stable key per rule row of the form (rows are added and removed). */
let ruleKeys = 0;
const ruleKey = () => `rule-${++ruleKeys}`;

interface RuleValues {
  key: string;
  category: Category | null;
  rate_percent: number | string;
  ceiling: string;
}

interface Values extends Record<string, unknown> {
  code: string;
  name: string;
  kind: PayerKind;
  payer_category: PayerCategory;
  contact: string;
  is_active: boolean;
  rules: RuleValues[];
  max_age_years: number | string;
  sex: 'F' | 'M' | null;
}

export function PayerFormModal({
  payer,
  currency,
  onClose,
}: {
  /** The payer to change; none: a new one. */
  payer?: TPayer;
  currency: string;
  onClose: () => void;
}) {
  const { t } = useTranslation(['billing', 'medical_acts']);
  const create = useCreatePayer();
  const update = useUpdatePayer();
  const form = useForm<Values>({
    initialValues: {
      code: payer?.code ?? '',
      name: payer?.name ?? '',
      kind: payer?.kind ?? 'insurer',
      payer_category: payer?.payer_category ?? 'insured',
      contact: payer?.contact ?? '',
      is_active: payer?.is_active ?? true,
      rules: (payer?.rules ?? [{ category: 'consultation', rate_percent: 80, ceiling: null }]).map((r) => ({
        key: ruleKey(),
        category: r.category,
        rate_percent: r.rate_percent,
        ceiling: r.ceiling === null ? '' : minorToDecimal(r.ceiling, currency),
      })),
      max_age_years: payer?.eligibility.max_age_years ?? '',
      sex: payer?.eligibility.sex ?? null,
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('payers.failed'));
  const v = form.getValues();

  async function submit() {
    clear();
    const rules = [];
    for (const [i, r] of v.rules.entries()) {
      const ceiling = r.ceiling.trim() === '' ? null : parseMoney(r.ceiling, currency);
      if (r.ceiling.trim() !== '' && (ceiling === null || ceiling < 0)) {
        form.setFieldError(`rules.${i}.ceiling`, t('amountInvalid'));
        return;
      }
      rules.push({ category: r.category, rate_percent: Number(r.rate_percent), ceiling });
    }
    const body = validateWith(
      ZPayerCreate,
      {
        code: v.code,
        name: v.name,
        kind: v.kind,
        payer_category: v.payer_category,
        contact: v.contact.trim() || null,
        is_active: v.is_active,
        rules,
        eligibility: {
          max_age_years: v.max_age_years === '' ? null : Number(v.max_age_years),
          sex: v.sex,
        },
      },
      form,
    );
    if (!body) return;
    try {
      if (payer) await update.mutateAsync({ id: payer.id, body });
      else await create.mutateAsync(body);
      toast({ kind: 'success', title: t('payers.saved') });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  const usedCategories = new Set(v.rules.map((r) => r.category));
  return (
    <ModalForm
      opened
      onClose={onClose}
      title={payer ? t('payers.edit') : t('payers.new')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid="payer-form">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('payers.code')} required data-autofocus {...form.getInputProps('code')} />
          <TextInput label={t('payers.name')} required {...form.getInputProps('name')} />
          <Select
            label={t('payers.kind')}
            required
            allowDeselect={false}
            data={PAYER_KINDS.map((value) => ({ value, label: t(`payerKinds.${value}`) }))}
            {...form.getInputProps('kind')}
          />
          <Select
            label={t('payers.category')}
            description={t('payers.categoryHint')}
            required
            allowDeselect={false}
            data={PAYER_CATEGORIES.map((value) => ({
              value,
              label: t(`medical_acts:payerCategories.${value}`),
            }))}
            {...form.getInputProps('payer_category')}
          />
        </SimpleGrid>
        <TextInput label={t('payers.contact')} {...form.getInputProps('contact')} />
        <Text size="sm" fw={600}>
          {t('payers.rules')}
        </Text>
        {v.rules.map((rule, i) => (
          <Group key={rule.key} align="flex-end" gap="xs" wrap="nowrap" data-testid="payer-rule">
            <Select
              label={t('payers.ruleCategory')}
              required
              style={{ flex: 2 }}
              data={BILLING_CATEGORIES.map((value) => ({
                value,
                label: t(`medical_acts:categories.${value}`),
                disabled: value !== rule.category && usedCategories.has(value),
              }))}
              {...form.getInputProps(`rules.${i}.category`)}
            />
            <NumberInput
              label={t('payers.rate')}
              required
              min={0}
              max={100}
              suffix=" %"
              allowDecimal={false}
              style={{ flex: 1 }}
              {...form.getInputProps(`rules.${i}.rate_percent`)}
            />
            <MoneyInput
              label={t('payers.ceiling')}
              placeholder={t('payers.noCeiling')}
              currency={currency}
              style={{ flex: 1.5 }}
              {...form.getInputProps(`rules.${i}.ceiling`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('payers.removeRule')}
              onClick={() => form.removeListItem('rules', i)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            disabled={v.rules.length >= BILLING_CATEGORIES.length}
            onClick={() =>
              form.insertListItem('rules', { key: ruleKey(), category: null, rate_percent: 100, ceiling: '' })
            }
          >
            {t('payers.addRule')}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput
            label={t('payers.maxAge')}
            description={t('payers.maxAgeHint')}
            min={0}
            max={120}
            allowDecimal={false}
            {...form.getInputProps('max_age_years')}
          />
          <Select
            label={t('payers.sex')}
            clearable
            placeholder={t('payers.anySex')}
            data={[
              { value: 'F', label: t('payers.female') },
              { value: 'M', label: t('payers.male') },
            ]}
            {...form.getInputProps('sex')}
          />
        </SimpleGrid>
        <Checkbox label={t('payers.active')} {...form.getInputProps('is_active', { type: 'checkbox' })} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('payers.save')}
          loading={create.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
