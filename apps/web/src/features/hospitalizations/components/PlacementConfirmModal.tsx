/**
 * Every placement asks (issue 37): "Place X in ward W, room R, bed B?", with the server's answer on the bed's
 * guardrails (the ward's sex and ages, the stay's department, one sex per room) shown before anything is written.
 * A broken guardrail blocks the placement, unless the caller may override (a charge nurse): she gives a reason,
 * kept with the placement and audited. The rules are the server's; this dialog only shows its answer.
 */
import type { TBoardWard } from '@greensen/shared/contracts/hospitalizations';
import { Alert, Button, Group, List, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { LoadError } from '../../../lib/page-states';
import { useBedCheck } from '../api/board';

export interface PlacementTarget {
  bed: string;
  label: string;
  room: string;
  ward: string;
}

const MIN_REASON = 5;

/** Where bed `bedId` is on the board (its label, room and ward), null when the board does not show it. */
export function placementTargetOf(wards: readonly TBoardWard[], bedId: string): PlacementTarget | null {
  for (const ward of wards)
    for (const room of ward.rooms)
      for (const bed of room.beds)
        if (bed.id === bedId) return { bed: bed.id, label: bed.label, room: room.name, ward: ward.name };
  return null;
}

export function PlacementConfirmModal({
  stay,
  patient,
  target,
  onClose,
  onConfirm,
}: {
  stay: string;
  patient: string;
  /** The bed chosen; null: the dialog is closed. */
  target: PlacementTarget | null;
  onClose: () => void;
  /** Places the patient (with the override reason when guardrails are broken); rejects with the API error. */
  onConfirm: (overrideReason: string | null) => Promise<unknown>;
}) {
  const { t } = useTranslation('hospitalizations');
  const check = useBedCheck(stay, target?.bed ?? null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const broken = check.data?.guardrails ?? [];
  const mayOverride = check.data?.may_override ?? false;
  const blocked = broken.length > 0 && (!mayOverride || reason.trim().length < MIN_REASON);

  function close() {
    setReason('');
    setError(null);
    onClose();
  }

  async function confirm() {
    setError(null);
    setSaving(true);
    try {
      await onConfirm(broken.length > 0 ? reason.trim() : null);
      close();
    } catch (failure) {
      if (isApiError(failure) && failure.status !== 403) setError(failure.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened={target !== null} onClose={close} title={t('board.confirm.title')} size="md">
      {target && (
        <Stack gap="sm" data-testid="placement-confirm">
          <Text fw={600}>
            {t('board.confirm.question', {
              patient,
              ward: target.ward,
              room: target.room,
              bed: target.label,
            })}
          </Text>
          {check.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                {t('board.confirm.checking')}
              </Text>
            </Group>
          ) : check.isError ? (
            <LoadError error={check.error} onRetry={() => void check.refetch()} />
          ) : broken.length === 0 ? (
            <Alert color="green" icon={<IconCheck size={18} />} data-testid="placement-fine">
              {t('board.confirm.fine')}
            </Alert>
          ) : (
            <Alert
              color="red"
              icon={<IconAlertTriangle size={18} />}
              title={t('board.confirm.broken')}
              data-testid="placement-guardrails"
            >
              <List size="sm" spacing={4}>
                {broken.map((g) => (
                  <List.Item key={g.code} data-code={g.code}>
                    {g.message}
                  </List.Item>
                ))}
              </List>
              {!mayOverride && (
                <Text size="sm" mt="xs" fw={600}>
                  {t('board.confirm.onlyCharge')}
                </Text>
              )}
            </Alert>
          )}
          {broken.length > 0 && mayOverride && (
            <Textarea
              label={t('board.confirm.reason')}
              description={t('board.confirm.reasonHint')}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              minRows={2}
              autosize
              required
              maxLength={500}
            />
          )}
          {error && (
            <Alert color="red" role="alert" title={t('board.assignFailed')}>
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button
              color={broken.length > 0 ? 'red' : undefined}
              onClick={() => void confirm()}
              loading={saving}
              disabled={!check.isSuccess || blocked}
            >
              {broken.length > 0 ? t('board.confirm.override') : t('board.confirm.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
