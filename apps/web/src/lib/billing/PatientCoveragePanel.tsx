/**
 * The patient's coverage on the record's "Facturation" tab (issue 21, decision 0036): who pays part of the bills
 * (insurer, mutual fund, employer, free-care programme), with the member number, the validity and the payer's share
 * per act category. Billing staff and the management (the cash desk and the secretary of the billing department)
 * add a coverage and end one; the invoice's assembly applies the one valid on the visit's day.
 */
import type { TCoverage, TPayer } from '@greensen/shared/contracts/billing';
import { ZCoverageCreate } from '@greensen/shared/contracts/billing';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconShieldCheck } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../date-field';
import { useFormFailure } from '../field-errors';
import { formatDate, formatNumber } from '../format';
import { FormFooter, ModalForm } from '../modal-form';
import { LoadError } from '../page-states';
import { toast } from '../toast';
import { validateWith } from '../zod-form';
import { useActivePayers, useAddCoverage, useCoverages, useEndCoverage } from './coverage-deposits';

/** "Consultation 80 %, Laboratoire 100 %": the payer's share per act category. */
export function payerShares(payer: Pick<TPayer, 'rules'>, category: (c: string) => string): string {
  return payer.rules.map((r) => `${category(r.category)} ${formatNumber(r.rate_percent)} %`).join(', ');
}

interface Values extends Record<string, unknown> {
  payer: string | null;
  member_number: string;
  valid_from: string;
  valid_to: string;
}

function AddCoverageModal({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation(['billing', 'medical_acts']);
  const payers = useActivePayers();
  const add = useAddCoverage(patientId);
  const form = useForm<Values>({
    initialValues: { payer: null, member_number: '', valid_from: dayjs().format('YYYY-MM-DD'), valid_to: '' },
  });
  const { general, clear, fail } = useFormFailure(form, t('coverage.failed'));
  const v = form.getValues();
  const chosen = payers.data?.find((p) => p.id === v.payer);

  async function submit() {
    clear();
    const body = validateWith(
      ZCoverageCreate,
      {
        payer: v.payer ?? '',
        member_number: v.member_number,
        valid_from: v.valid_from || null,
        valid_to: v.valid_to || null,
      },
      form,
    );
    if (!body) return;
    try {
      await add.mutateAsync(body);
      toast({ kind: 'success', title: t('coverage.added') });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('coverage.add')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="coverage-form">
        <Select
          label={t('coverage.payer')}
          required
          searchable
          nothingFoundMessage={t('coverage.noPayer')}
          data={(payers.data ?? []).map((p) => ({
            value: p.id,
            label: `${p.name} (${t(`payerKinds.${p.kind}`)})`,
          }))}
          data-autofocus
          {...form.getInputProps('payer')}
        />
        {chosen && (
          <Text size="sm" c="dimmed" data-testid="coverage-shares">
            {chosen.rules.length > 0
              ? t('coverage.shares', {
                  shares: payerShares(chosen, (c) => t(`medical_acts:categories.${c}`)),
                })
              : t('coverage.noRule')}
          </Text>
        )}
        <TextInput label={t('coverage.member')} required {...form.getInputProps('member_number')} />
        <Group grow>
          <DateField label={t('coverage.from')} {...form.getInputProps('valid_from')} />
          <DateField label={t('coverage.to')} clearable {...form.getInputProps('valid_to')} />
        </Group>
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('coverage.save')}
          loading={add.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

function EndCoverageButton({ patientId, coverage }: { patientId: string; coverage: TCoverage }) {
  const { t } = useTranslation('billing');
  const end = useEndCoverage(patientId);
  return (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      loading={end.isPending}
      onClick={() =>
        end.mutate(
          { coverage: coverage.id, valid_to: dayjs().format('YYYY-MM-DD') },
          {
            onSuccess: () => toast({ kind: 'success', title: t('coverage.ended') }),
            onError: () => toast({ kind: 'error', title: t('coverage.failed') }),
          },
        )
      }
    >
      {t('coverage.end')}
    </Button>
  );
}

export function PatientCoveragePanel({ patientId, canEdit }: { patientId: string; canEdit: boolean }) {
  const { t } = useTranslation('billing');
  const query = useCoverages(patientId);
  const [adding, setAdding] = useState(false);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={96} data-testid="coverage-loading" />;
  const rows = query.data.results;
  return (
    <Paper withBorder radius="md" p="md" data-testid="patient-coverage">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <IconShieldCheck size={18} />
            <Text fw={600}>{t('coverage.title')}</Text>
          </Group>
          {canEdit && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => setAdding(true)}
            >
              {t('coverage.add')}
            </Button>
          )}
        </Group>
        {rows.length === 0 ? (
          <Alert color="gray">{t('coverage.none')}</Alert>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('coverage.payer')}</Table.Th>
                  <Table.Th>{t('coverage.member')}</Table.Th>
                  <Table.Th>{t('coverage.validity')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.id} data-testid="coverage-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {c.payer.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t(`payerKinds.${c.payer.kind}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{c.member_number}</Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm">
                          {c.valid_to
                            ? t('coverage.fromTo', {
                                from: formatDate(c.valid_from),
                                to: formatDate(c.valid_to),
                              })
                            : t('coverage.since', { from: formatDate(c.valid_from) })}
                        </Text>
                        <Badge size="sm" variant="light" color={c.is_current ? 'green' : 'gray'}>
                          {c.is_current ? t('coverage.current') : t('coverage.notCurrent')}
                        </Badge>
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      {canEdit && c.is_current && <EndCoverageButton patientId={patientId} coverage={c} />}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {adding && <AddCoverageModal patientId={patientId} onClose={() => setAdding(false)} />}
    </Paper>
  );
}
