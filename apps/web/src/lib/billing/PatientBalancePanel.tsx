/**
 * The patient record's "Facturation" tab (issue 21): what the patient still owes on issued invoices, what was
 * invoiced and paid, how many invoices are open or still drafts. Clinicians see the balance only; billing staff and
 * the management also get the link to the patient's invoices.
 */
import { Alert, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { money } from '../money';
import { DetailField, LoadError } from '../page-states';
import { useLocalizedPath } from '../use-localized-path';
import { usePatientBalance } from './patient-balance';

export function PatientBalancePanel({
  patientId,
  invoicesLink,
}: {
  patientId: string;
  invoicesLink: boolean;
}) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  const query = usePatientBalance(patientId);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={96} data-testid="balance-loading" />;
  const b = query.data;
  const owes = b.balance > 0;
  return (
    <Stack gap="sm" data-testid="patient-balance">
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('balance.title')}
            </Text>
            <Text
              size="xl"
              fw={700}
              c={owes ? 'orange' : b.balance < 0 ? 'blue' : 'green'}
              data-testid="balance-amount"
            >
              {money(b.balance, b.currency)}
            </Text>
            <Text size="sm" c="dimmed">
              {owes ? t('balance.owes') : b.balance < 0 ? t('balance.credit') : t('balance.settled')}
            </Text>
          </div>
          {invoicesLink && (
            <Button
              component={Link}
              to={to(`/billing?patient=${patientId}`)}
              variant="light"
              leftSection={<IconReceipt size={16} />}
            >
              {t('balance.invoices')}
            </Button>
          )}
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" mt="md">
          <DetailField label={t('balance.invoiced')}>{money(b.invoiced, b.currency)}</DetailField>
          <DetailField label={t('balance.paid')}>{money(b.paid, b.currency)}</DetailField>
          <DetailField label={t('balance.openInvoices')}>{b.open_invoices}</DetailField>
          <DetailField label={t('balance.drafts')}>{b.draft_invoices}</DetailField>
        </SimpleGrid>
      </Paper>
      {!owes && b.invoiced === 0 && b.draft_invoices === 0 && (
        <Alert color="gray" icon={<IconCircleCheck size={18} />}>
          {t('balance.none')}
        </Alert>
      )}
    </Stack>
  );
}
