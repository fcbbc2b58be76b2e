/**
 * The pharmacist's refusal (issue 34): "Refuse to dispense" a line under an alert, or what is left of the
 * prescription, with a required written reason (5 characters at least, as the server asks); and the refusal of a
 * line shown afterwards (who, when, why). The server decides: a 409 (the line was dispensed meanwhile) is shown.
 */
import type { TPrescriptionLine } from '@greensen/shared/contracts/pharmacy';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useRefuseDispense } from '../api/refuse';

const MIN_REASON = 5;

/** A line the pharmacy refused: who, when and why. */
export function RefusalNote({ refusal }: { refusal: NonNullable<TPrescriptionLine['refusal']> }) {
  const { t } = useTranslation('pharmacy');
  return (
    <Alert color="red" variant="light" icon={<IconBan size={16} />} p="xs" data-testid="line-refusal">
      <Text size="sm" fw={600}>
        {t('refusal.refusedBy', { name: refusal.by.full_name, at: formatDateTime(refusal.at) })}
      </Text>
      <Text size="sm">{t('refusal.reasonShown', { reason: refusal.reason })}</Text>
    </Alert>
  );
}

/** The action: a button that opens the reason, then sends the refusal of `lines` (null: the whole prescription). */
export function RefuseDispense({
  prescriptionId,
  lines,
  onRefused,
}: {
  prescriptionId: string;
  lines: string[] | null;
  onRefused?: () => void;
}) {
  const { t } = useTranslation('pharmacy');
  const refuse = useRefuseDispense(prescriptionId);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const label = lines === null ? t('refusal.wholeAction') : t('refusal.lineAction');

  if (!asking)
    return (
      <Group>
        <Button
          variant="light"
          color="red"
          size="xs"
          leftSection={<IconBan size={14} />}
          onClick={() => setAsking(true)}
        >
          {label}
        </Button>
      </Group>
    );

  async function send() {
    setError(null);
    if (reason.trim().length < MIN_REASON)
      return setError(t('refusal.reasonRequired', { count: MIN_REASON }));
    try {
      await refuse.mutateAsync({ lines, reason: reason.trim() });
      toast({ kind: 'success', title: t('refusal.done') });
      setAsking(false);
      setReason('');
      onRefused?.();
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : t('refusal.failed'));
    }
  }

  return (
    <Stack gap="xs" data-testid="refuse-form">
      <Textarea
        label={t('refusal.reason')}
        description={t('refusal.reasonHint')}
        withAsterisk
        autosize
        minRows={2}
        maxLength={500}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={error}
      />
      <Group gap="xs">
        <Button
          color="red"
          size="xs"
          loading={refuse.isPending}
          leftSection={<IconBan size={14} />}
          onClick={() => void send()}
        >
          {t('refusal.confirm')}
        </Button>
        <Button variant="default" size="xs" disabled={refuse.isPending} onClick={() => setAsking(false)}>
          {t('common:actions.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}
