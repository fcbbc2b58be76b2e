/**
 * The hospital's DHIS2 mapping (administrators; decision 0039): the organisation unit, the monthly and weekly data
 * sets, and per indicator the data element + category option combo (+ attribute option combo) that receive it.
 */
import {
  DHIS2_ID_SCHEMES,
  DHIS2_INDICATORS,
  type TDhis2Mapping,
  type TDhis2MappingUpdate,
} from '@greensen/shared/contracts/dhis2';
import { ActionIcon, Alert, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFormFailure } from '../../../lib/field-errors';
import { toast } from '../../../lib/toast';
import { useSaveDhis2Mapping } from '../api/dhis2';

type Row = {
  indicator: string;
  data_element: string;
  category_option_combo: string;
  attribute_option_combo: string;
};
type Values = {
  id_scheme: string;
  org_unit: string;
  monthly_data_set: string;
  weekly_data_set: string;
  rows: Row[];
};

/** An indicator's label: `idsr.malaria_confirmed.1-4` → "Paludisme confirmé · 1–4 ans". */
export function useIndicatorLabel() {
  const { t } = useTranslation('analytics');
  return (key: string) => {
    const [head, disease, group] = key.split('.');
    if (head === 'idsr' && disease && group)
      return `${t('dhis2.idsr')} · ${t(`idsr.${disease}`)} · ${group === 'total' ? t('columns.total') : t(`age.${group}`)}`;
    return t(`dhis2.indicators.${key}`);
  };
}

const ROW_FIELDS = [
  ['data_element', 'dhis2.dataElement'],
  ['category_option_combo', 'dhis2.categoryOptionCombo'],
  ['attribute_option_combo', 'dhis2.attributeOptionCombo'],
] as const;

const blank = (v: string) => (v.trim() === '' ? null : v.trim());

export function Dhis2MappingForm({ mapping }: { mapping: TDhis2Mapping }) {
  const { t } = useTranslation('analytics');
  const label = useIndicatorLabel();
  const save = useSaveDhis2Mapping();
  const form = useForm<Values>({
    initialValues: {
      id_scheme: mapping.id_scheme,
      org_unit: mapping.org_unit,
      monthly_data_set: mapping.monthly_data_set ?? '',
      weekly_data_set: mapping.weekly_data_set ?? '',
      rows: mapping.rows.map((r) => ({ ...r, attribute_option_combo: r.attribute_option_combo ?? '' })),
    },
  });
  const failure = useFormFailure(form, t('dhis2.saveFailed'));
  const indicators = DHIS2_INDICATORS.map((key) => ({ value: key, label: label(key) }));
  const submit = (values: Values) => {
    failure.clear();
    const body: TDhis2MappingUpdate = {
      id_scheme: values.id_scheme as TDhis2MappingUpdate['id_scheme'],
      org_unit: values.org_unit.trim(),
      monthly_data_set: blank(values.monthly_data_set),
      weekly_data_set: blank(values.weekly_data_set),
      rows: values.rows.map((r) => ({
        indicator: r.indicator,
        data_element: r.data_element.trim(),
        category_option_combo: r.category_option_combo.trim(),
        attribute_option_combo: blank(r.attribute_option_combo),
      })),
    };
    save.mutate(body, {
      onSuccess: () => toast({ kind: 'success', title: t('dhis2.saved') }),
      onError: failure.fail,
    });
  };
  return (
    <form onSubmit={form.onSubmit(submit)} data-testid="dhis2-mapping">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label={t('dhis2.idScheme')}
            data={DHIS2_ID_SCHEMES.map((s) => ({ value: s, label: t(`dhis2.schemes.${s}`) }))}
            allowDeselect={false}
            w={160}
            {...form.getInputProps('id_scheme')}
          />
          <TextInput label={t('dhis2.orgUnit')} required w={180} {...form.getInputProps('org_unit')} />
          <TextInput label={t('dhis2.monthlyDataSet')} w={180} {...form.getInputProps('monthly_data_set')} />
          <TextInput label={t('dhis2.weeklyDataSet')} w={180} {...form.getInputProps('weekly_data_set')} />
        </Group>
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dhis2.indicator')}</Table.Th>
              <Table.Th>{t('dhis2.dataElement')}</Table.Th>
              <Table.Th>{t('dhis2.categoryOptionCombo')}</Table.Th>
              <Table.Th>{t('dhis2.attributeOptionCombo')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {form.values.rows.map((_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are edited in place, by position
              <Table.Tr key={i}>
                <Table.Td miw={260}>
                  <Select
                    aria-label={t('dhis2.indicator')}
                    searchable
                    data={indicators}
                    {...form.getInputProps(`rows.${i}.indicator`)}
                  />
                </Table.Td>
                {ROW_FIELDS.map(([field, labelKey]) => (
                  <Table.Td key={field}>
                    <TextInput
                      aria-label={t(labelKey)}
                      required={field !== 'attribute_option_combo'}
                      {...form.getInputProps(`rows.${i}.${field}`)}
                    />
                  </Table.Td>
                ))}
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('dhis2.removeRow')}
                    onClick={() => form.removeListItem('rows', i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {form.values.rows.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('dhis2.noRows')}
          </Text>
        )}
        {failure.general && <Alert color="red">{failure.general}</Alert>}
        <Group justify="space-between">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() =>
              form.insertListItem('rows', {
                indicator: '',
                data_element: '',
                category_option_combo: '',
                attribute_option_combo: '',
              })
            }
          >
            {t('dhis2.addRow')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('dhis2.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
