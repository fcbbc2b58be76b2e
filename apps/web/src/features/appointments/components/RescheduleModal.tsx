/**
 * Reschedule an appointment (the keyboard alternative to dragging it in the calendar): the provider's free slots
 * for the appointment's type from a date, an optional reason; the old time stays in the history. A 409 (the slot
 * was just taken) is said plainly and the slots are asked again. Head doctors may overbook a full slot.
 */
import {
  type TAppointment,
  type TSlot,
  ZAppointmentReschedule,
} from '@greensen/shared/contracts/appointments';
import { Stack, Switch, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { SLOTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useSlots } from '../api/list-slots';
import { useRescheduleAppointment } from '../api/reschedule';
import { SLOT_WINDOW_DAYS } from './BookAppointmentModal';
import { SlotPicker, SlotTakenAlert } from './SlotPicker';
import { addDaysTo, formatSlotRange, localDate, slotKey } from './slot-format';

interface RescheduleValues {
  start: string;
  reason: string;
  [key: string]: unknown;
}

export function RescheduleModal({
  appointment,
  onClose,
}: {
  /** The appointment to move; null: closed. */
  appointment: TAppointment | null;
  onClose: () => void;
}) {
  if (!appointment) return null;
  return <RescheduleForm appointment={appointment} onClose={onClose} />;
}

function RescheduleForm({ appointment, onClose }: { appointment: TAppointment; onClose: () => void }) {
  const { t } = useTranslation('appointments');
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const form = useForm<RescheduleValues>({ initialValues: { start: '', reason: '' } });
  const failure = useFormFailure(form, t('reschedule.failed'));
  const today = localDate(new Date());
  const [from, setFrom] = useState(today);
  const [chosen, setChosen] = useState('');
  const [overbook, setOverbook] = useState(false);
  const [taken, setTaken] = useState<string | null>(null);
  const move = useRescheduleAppointment();
  const slots = useSlots({
    provider: appointment.provider.id,
    department: appointment.department.id,
    from,
    to: addDaysTo(from, SLOT_WINDOW_DAYS - 1),
    type: appointment.appointment_type,
    freeOnly: !overbook,
    limit: 200,
  });
  // The appointment's own slot is not a move.
  const answered = slots.data
    ? { ...slots.data, results: slots.data.results.filter((s) => s.start !== appointment.start) }
    : undefined;
  const chosenSlot = (answered?.results ?? []).find((s) => slotKey(s) === chosen) ?? null;

  function pick(slot: TSlot) {
    setChosen(slotKey(slot));
    setTaken(null);
    form.setFieldValue('start', slot.start);
    form.clearFieldError('start');
  }

  async function submit() {
    failure.clear();
    setTaken(null);
    const values = form.getValues();
    const body = validateWith(
      ZAppointmentReschedule,
      {
        start: chosenSlot?.start ?? '',
        reason: values.reason.trim() || null,
        ...(overbook && chosenSlot && chosenSlot.free <= 0 ? { overbook: true } : {}),
      },
      form,
    );
    if (!body) return;
    try {
      const moved = await move.mutateAsync({ id: appointment.id, body });
      toast({
        kind: 'success',
        title: t('reschedule.done'),
        description: formatSlotRange(moved.start, moved.end),
      });
      onClose();
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        setTaken(error.detail ?? t('book.takenHint'));
        setChosen('');
        form.setFieldValue('start', '');
        void queryClient.invalidateQueries({ queryKey: SLOTS_KEY });
        return;
      }
      failure.fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={t('reschedule.title')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid="reschedule-form">
        <Text size="sm">
          {t('reschedule.current', {
            when: formatSlotRange(appointment.start, appointment.end),
            provider: appointment.provider.full_name,
          })}
        </Text>
        <DateField
          label={t('book.from')}
          value={from}
          min={today}
          onChange={(value) => value && setFrom(value)}
          w={200}
        />
        {can('appointment.overbook') && (
          <Switch
            label={t('book.overbook')}
            description={t('book.overbookHint')}
            checked={overbook}
            onChange={(event) => {
              setOverbook(event.currentTarget.checked);
              setChosen('');
            }}
          />
        )}
        {taken && <SlotTakenAlert detail={taken} />}
        <SlotPicker
          label={t('reschedule.slot')}
          query={{ ...slots, data: answered }}
          value={chosen}
          onChange={pick}
          showProvider={false}
          error={form.errors.start}
        />
        <Textarea label={t('reschedule.reason')} autosize minRows={2} {...form.getInputProps('reason')} />
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={t('reschedule.submit')}
          loading={move.isPending}
          leftSection={<IconCalendarEvent size={16} />}
        />
      </Stack>
    </ModalForm>
  );
}
