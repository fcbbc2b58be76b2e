/**
 * Choosing a free bed in a dialog: the free beds of the board (of one ward or department when given), by ward
 * and room, each a button. The keyboard alternative to dragging a patient onto a bed, and the bed of a
 * transfer's completion. A refusal (409: the bed was taken meanwhile) is shown in the dialog, whose beds are
 * then fetched again.
 */
import type { TBoardWard } from '@greensen/shared/contracts/hospitalizations';
import { Alert, Button, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconBed } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { LoadError } from '../../../lib/page-states';
import { type BoardFilters, useBedBoard } from '../api/board';
import type { PlacementTarget } from './PlacementConfirmModal';

/** The wards with at least one free bed, and in each only the rooms with free beds. */
export function freeBedsOf(wards: readonly TBoardWard[]) {
  return wards
    .map((ward) => ({
      ward,
      rooms: ward.rooms
        .map((room) => ({ room, beds: room.beds.filter((bed) => bed.status === 'free') }))
        .filter((room) => room.beds.length > 0),
    }))
    .filter((ward) => ward.rooms.length > 0);
}

export function BedPickerModal({
  opened,
  onClose,
  title,
  description,
  filters = {},
  onPick,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  filters?: BoardFilters;
  /** Puts the patient in the bed (or asks first: issue 37); rejects with the API error. */
  onPick: (bed: string, target: PlacementTarget) => Promise<unknown>;
}) {
  const { t } = useTranslation('hospitalizations');
  const board = useBedBoard(filters, opened);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const wards = freeBedsOf(board.data?.wards ?? []);

  async function pick(bed: string, target: PlacementTarget) {
    setError(null);
    setPending(bed);
    try {
      await onPick(bed, target);
      onClose();
    } catch (failure) {
      if (isApiError(failure) && failure.status !== 403) setError(failure.message);
    } finally {
      setPending(null);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <Stack gap="sm" data-testid="bed-picker">
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert" title={t('board.assignFailed')}>
            {error}
          </Alert>
        )}
        {board.isPending ? (
          <Group justify="center" py="md">
            <Loader size="sm" />
          </Group>
        ) : board.isError ? (
          <LoadError error={board.error} onRetry={() => void board.refetch()} />
        ) : wards.length === 0 ? (
          <Text c="dimmed">{t('board.noFreeBed')}</Text>
        ) : (
          wards.map(({ ward, rooms }) => (
            <Stack key={ward.id} gap={6}>
              <Title order={5}>
                {ward.name}{' '}
                <Text span size="sm" c="dimmed">
                  · {ward.department.name}
                </Text>
              </Title>
              {rooms.map(({ room, beds }) => (
                <Group key={room.id} gap={6} wrap="wrap">
                  <Text size="sm" w={90}>
                    {t('board.room', { name: room.name })}
                  </Text>
                  {beds.map((bed) => (
                    <Button
                      key={bed.id}
                      size="xs"
                      variant="light"
                      color="green"
                      leftSection={<IconBed size={14} />}
                      loading={pending === bed.id}
                      disabled={pending !== null && pending !== bed.id}
                      aria-label={t('board.pickBed', { ward: ward.name, room: room.name, bed: bed.label })}
                      onClick={() =>
                        void pick(bed.id, { bed: bed.id, label: bed.label, room: room.name, ward: ward.name })
                      }
                    >
                      {bed.label}
                    </Button>
                  ))}
                </Group>
              ))}
            </Stack>
          ))
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
