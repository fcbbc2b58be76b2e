/**
 * One ward's rooms and beds (issue 15): every bed as a chip coloured by its status (free, occupied, cleaning,
 * out of service with its reason). An administrator adds a room with its beds at once ("12", beds "A-D"), adds
 * beds, sets a bed's status, and deactivates beds and rooms — never one with a patient (the server refuses,
 * and the menu does not offer it).
 */
import { bedLabelsFrom, type TBed, type TRoom, ZRoomCreate } from '@greensen/shared/contracts/structure';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBed, IconDots, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { BED_COLORS, BedCounts } from '../../../lib/clinical/components/BedCounts';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { DetailQueryState } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useAddBeds, useCreateRoom, useUpdateBed, useUpdateRoom, useWard } from '../api/structure';

/** The toast of a failed change: the server's reason (an occupied bed, a taken label). */
function useFailureToast() {
  const { t } = useTranslation('structure');
  return (error: unknown) =>
    toast({ kind: 'error', title: t('failed'), description: isApiError(error) ? error.message : undefined });
}

function RoomFormModal({
  ward,
  room,
  opened,
  onClose,
}: {
  ward: string;
  /** Adding beds to this room; a new room when null. */
  room: TRoom | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('structure');
  const form = useForm({ initialValues: { name: '', beds: room ? '' : 'A-D' } });
  const applyServerErrors = useServerFieldErrors(form);
  const createRoom = useCreateRoom();
  const addBeds = useAddBeds();
  const [general, setGeneral] = useState<string | null>(null);
  const labels = bedLabelsFrom(form.getValues().beds);

  async function submit() {
    setGeneral(null);
    if (!labels) {
      form.setFieldError('beds', t('rooms.bedsInvalid'));
      return;
    }
    try {
      if (room) {
        await addBeds.mutateAsync({ room: room.id, labels });
      } else {
        const body = validateWith(ZRoomCreate, { name: form.getValues().name, beds: labels }, form);
        if (!body) return;
        await createRoom.mutateAsync({ ward, ...body });
      }
      toast({
        kind: 'success',
        title: t(room ? 'rooms.bedsAdded' : 'rooms.created', { count: labels.length }),
      });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={room ? t('rooms.addBedsTo', { room: room.name }) : t('rooms.new')}
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        {!room && <TextInput label={t('rooms.name')} withAsterisk {...form.getInputProps('name')} />}
        <TextInput
          label={t('rooms.beds')}
          description={t('rooms.bedsHint')}
          withAsterisk
          {...form.getInputProps('beds')}
        />
        <Text size="sm" c="dimmed" data-testid="bed-preview">
          {labels
            ? t('rooms.preview', { count: labels.length, labels: labels.join(', ') })
            : t('rooms.bedsInvalid')}
        </Text>
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('save')}
          loading={createRoom.isPending || addBeds.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

function BedChip({ bed, canManage }: { bed: TBed; canManage: boolean }) {
  const { t } = useTranslation('structure');
  const update = useUpdateBed();
  const failed = useFailureToast();
  const [reasonFor, setReasonFor] = useState(false);
  const reasonForm = useForm({ initialValues: { status_reason: '' } });
  const label = `${t('beds.bed')} ${bed.label} · ${t(`beds.status.${bed.status}`)}${bed.status_reason ? ` (${bed.status_reason})` : ''}${bed.is_active ? '' : ` · ${t('inactive')}`}`;
  const change = async (body: Record<string, unknown>) => {
    try {
      await update.mutateAsync({ id: bed.id, ...body });
    } catch (error) {
      failed(error);
    }
  };
  const chip = (
    <Badge
      size="lg"
      radius="sm"
      variant={bed.is_active ? 'light' : 'outline'}
      color={bed.is_active ? BED_COLORS[bed.status] : 'gray'}
      leftSection={<IconBed size={14} />}
      style={{
        textDecoration: bed.is_active ? undefined : 'line-through',
        cursor: canManage ? 'pointer' : 'default',
      }}
      data-testid="bed-chip"
      data-status={bed.status}
    >
      {bed.label}
    </Badge>
  );
  if (!canManage)
    return (
      <Tooltip label={label}>
        <span>
          {chip}
          <VisuallyHidden>{label}</VisuallyHidden>
        </span>
      </Tooltip>
    );
  const occupied = bed.status === 'occupied';
  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={label}>{chip}</UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{label}</Menu.Label>
          {occupied ? (
            <Menu.Item disabled>{t('beds.occupiedNoChange')}</Menu.Item>
          ) : (
            <>
              {bed.status !== 'free' && (
                <Menu.Item onClick={() => void change({ status: 'free' })}>{t('beds.setFree')}</Menu.Item>
              )}
              {bed.status !== 'cleaning' && (
                <Menu.Item onClick={() => void change({ status: 'cleaning' })}>
                  {t('beds.setCleaning')}
                </Menu.Item>
              )}
              {bed.status !== 'out_of_service' && (
                <Menu.Item onClick={() => setReasonFor(true)}>{t('beds.setOutOfService')}</Menu.Item>
              )}
              <Menu.Divider />
              <Menu.Item
                color={bed.is_active ? 'red' : undefined}
                onClick={() => void change({ is_active: !bed.is_active })}
              >
                {t(bed.is_active ? 'beds.deactivate' : 'beds.reactivate')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <ModalForm
        opened={reasonFor}
        onClose={() => setReasonFor(false)}
        title={t('beds.outOfServiceTitle', { bed: bed.label })}
        onSubmit={() => {
          const reason = reasonForm.getValues().status_reason.trim();
          if (!reason) {
            reasonForm.setFieldError('status_reason', t('beds.reasonRequired'));
            return;
          }
          void change({ status: 'out_of_service', status_reason: reason }).then(() => setReasonFor(false));
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('beds.reason')}
            placeholder={t('beds.reasonPlaceholder')}
            withAsterisk
            data-autofocus
            {...reasonForm.getInputProps('status_reason')}
          />
          <FormFooter
            onCancel={() => setReasonFor(false)}
            submitLabel={t('save')}
            loading={update.isPending}
          />
        </Stack>
      </ModalForm>
    </>
  );
}

function RoomCard({
  room,
  canManage,
  onAddBeds,
}: {
  room: TRoom;
  canManage: boolean;
  onAddBeds: () => void;
}) {
  const { t } = useTranslation('structure');
  const update = useUpdateRoom();
  const failed = useFailureToast();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="room-card" opacity={room.is_active ? 1 : 0.6}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600}>
            {t('rooms.room', { name: room.name })}
            {!room.is_active && (
              <Badge ml="xs" size="xs" color="gray" variant="outline">
                {t('inactive')}
              </Badge>
            )}
          </Text>
          {canManage && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={t('rooms.actionsOf', { name: room.name })}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPlus size={14} />} onClick={onAddBeds}>
                  {t('rooms.addBeds')}
                </Menu.Item>
                <Menu.Item
                  color={room.is_active ? 'red' : undefined}
                  onClick={() =>
                    update.mutateAsync({ id: room.id, is_active: !room.is_active }).catch(failed)
                  }
                >
                  {t(room.is_active ? 'rooms.deactivate' : 'rooms.reactivate')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
        <Group gap={6}>
          {room.beds.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('rooms.noBeds')}
            </Text>
          ) : (
            room.beds.map((bed) => <BedChip key={bed.id} bed={bed} canManage={canManage} />)
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

export function WardBeds({ wardId, canManage }: { wardId: string; canManage: boolean }) {
  const { t } = useTranslation('structure');
  const query = useWard(wardId);
  const [roomForm, setRoomForm] = useState<TRoom | 'new' | null>(null);
  if (query.isPending || query.isError) return <DetailQueryState query={query} blocks={[60, 160]} />;
  const ward = query.data;
  return (
    <Stack gap="sm" data-testid="ward-beds">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Title order={4}>{ward.name}</Title>
          <BedCounts beds={ward.beds} />
        </Stack>
        {canManage && ward.is_active && (
          <Button leftSection={<IconPlus size={16} />} variant="light" onClick={() => setRoomForm('new')}>
            {t('rooms.new')}
          </Button>
        )}
      </Group>
      {ward.room_list.length === 0 ? (
        <Text c="dimmed">{t('rooms.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {ward.room_list.map((room) => (
            <RoomCard key={room.id} room={room} canManage={canManage} onAddBeds={() => setRoomForm(room)} />
          ))}
        </SimpleGrid>
      )}
      {roomForm && (
        <RoomFormModal
          key={roomForm === 'new' ? 'new' : roomForm.id}
          ward={ward.id}
          room={roomForm === 'new' ? null : roomForm}
          opened
          onClose={() => setRoomForm(null)}
        />
      )}
    </Stack>
  );
}
