/**
 * The dialogs of a provider's absences and of the hospital's public holidays, and the end of a schedule (issue
 * 22): each may leave future bookings out of a schedule, and then asks what to do with them (409
 * `bookings_affected`, decision 0028). A provider records their own absences; head doctors and administrators
 * anyone's; administrators keep the holidays (the server enforces the same rules).
 */
import {
  type TBookingsConflict,
  type TSchedule,
  ZHolidayCreate,
  ZScheduleEndQuery,
  ZScheduleExceptionCreate,
} from '@greensen/shared/contracts/appointments';
import { SCHEDULE_EXCEPTION_KINDS, type ScheduleExceptionKind } from '@greensen/shared/domain/appointments';
import { Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { affectedBookings, useAddException, useAddHoliday, useEndSchedule } from '../api/schedules';
import { BookingsAffected, type BookingsChoice, decisionOf, NO_CHOICE } from './BookingsAffected';
import { localDate } from './slot-format';

/** The 409 `bookings_affected` state of a dialog: the bookings, the choice, and the submit wrapper. */
function useAffected() {
  const [affected, setAffected] = useState<TBookingsConflict['affected'] | null>(null);
  const [choice, setChoice] = useState<BookingsChoice>(NO_CHOICE);
  return { affected, setAffected, choice, setChoice };
}

function AffectedQuestion({
  state,
  reasonError,
}: {
  state: ReturnType<typeof useAffected>;
  reasonError: unknown;
}): ReactNode {
  if (!state.affected) return null;
  return (
    <BookingsAffected
      affected={state.affected}
      choice={state.choice}
      onChange={state.setChoice}
      reasonError={typeof reasonError === 'string' ? reasonError : undefined}
    />
  );
}

// Absences ----------------------------------------------------------------------------------------------------

interface ExceptionValues {
  provider: string;
  kind: ScheduleExceptionKind;
  start_date: string;
  end_date: string;
  reason: string;
  [key: string]: unknown;
}

export function ExceptionModal({
  opened,
  providers,
  defaultProvider,
  onClose,
}: {
  opened: boolean;
  /** Whom the user may record an absence for (themself only, unless they manage schedules). */
  providers: { value: string; label: string }[];
  defaultProvider: string | null;
  onClose: () => void;
}) {
  if (!opened) return null;
  return <ExceptionForm providers={providers} defaultProvider={defaultProvider} onClose={onClose} />;
}

function ExceptionForm({
  providers,
  defaultProvider,
  onClose,
}: {
  providers: { value: string; label: string }[];
  defaultProvider: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('appointments');
  const today = localDate(new Date());
  const form = useForm<ExceptionValues>({
    initialValues: {
      provider: defaultProvider ?? '',
      kind: 'leave',
      start_date: today,
      end_date: today,
      reason: '',
    },
  });
  const failure = useFormFailure(form, t('schedules.absence.failed'));
  const state = useAffected();
  const add = useAddException();

  async function submit() {
    failure.clear();
    form.clearErrors();
    const v = form.getValues();
    const body = validateWith(
      ZScheduleExceptionCreate,
      {
        provider: v.provider,
        kind: v.kind,
        start_date: v.start_date,
        end_date: v.end_date,
        reason: v.reason.trim() || null,
        ...decisionOf(state.choice),
      },
      form,
    );
    if (!body) return;
    try {
      await add.mutateAsync(body);
      toast({ kind: 'success', title: t('schedules.absence.saved') });
      onClose();
    } catch (error) {
      const list = affectedBookings(error);
      if (list) state.setAffected(list);
      else failure.fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={t('schedules.absence.title')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid="absence-form">
        <Text size="sm" c="dimmed">
          {t('schedules.absence.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('schedules.form.provider')}
            data={providers}
            searchable
            required
            withAsterisk
            disabled={providers.length <= 1 && Boolean(defaultProvider)}
            {...form.getInputProps('provider')}
          />
          <Select
            label={t('schedules.absence.kind')}
            data={SCHEDULE_EXCEPTION_KINDS.map((k) => ({ value: k, label: t(`schedules.kind.${k}`) }))}
            allowDeselect={false}
            required
            withAsterisk
            {...form.getInputProps('kind')}
          />
          <DateField
            label={t('schedules.absence.start')}
            required
            withAsterisk
            {...form.getInputProps('start_date')}
          />
          <DateField
            label={t('schedules.absence.end')}
            required
            withAsterisk
            {...form.getInputProps('end_date')}
          />
        </SimpleGrid>
        <Textarea
          label={t('schedules.absence.reason')}
          autosize
          minRows={1}
          {...form.getInputProps('reason')}
        />
        <AffectedQuestion state={state} reasonError={form.errors.cancel_reason} />
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={t('schedules.absence.submit')}
          loading={add.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

// Holidays ----------------------------------------------------------------------------------------------------

interface HolidayValues {
  date: string;
  name: string;
  [key: string]: unknown;
}

export function HolidayModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  if (!opened) return null;
  return <HolidayForm onClose={onClose} />;
}

function HolidayForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('appointments');
  const form = useForm<HolidayValues>({ initialValues: { date: '', name: '' } });
  const failure = useFormFailure(form, t('schedules.holiday.failed'));
  const state = useAffected();
  const add = useAddHoliday();

  async function submit() {
    failure.clear();
    form.clearErrors();
    const v = form.getValues();
    const body = validateWith(
      ZHolidayCreate,
      { date: v.date, name: v.name, ...decisionOf(state.choice) },
      form,
    );
    if (!body) return;
    try {
      await add.mutateAsync(body);
      toast({ kind: 'success', title: t('schedules.holiday.saved') });
      onClose();
    } catch (error) {
      const list = affectedBookings(error);
      if (list) state.setAffected(list);
      else failure.fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('schedules.holiday.title')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="holiday-form">
        <DateField
          label={t('schedules.holiday.date')}
          required
          withAsterisk
          {...form.getInputProps('date')}
        />
        <TextInput
          label={t('schedules.holiday.name')}
          required
          withAsterisk
          {...form.getInputProps('name')}
        />
        <AffectedQuestion state={state} reasonError={form.errors.cancel_reason} />
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={t('schedules.holiday.submit')}
          loading={add.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

// The end of a schedule ---------------------------------------------------------------------------------------

export function EndScheduleModal({ schedule, onClose }: { schedule: TSchedule | null; onClose: () => void }) {
  if (!schedule) return null;
  return <EndScheduleForm schedule={schedule} onClose={onClose} />;
}

function EndScheduleForm({ schedule, onClose }: { schedule: TSchedule; onClose: () => void }) {
  const { t } = useTranslation('appointments');
  const form = useForm<Record<string, unknown>>({ initialValues: {} });
  const failure = useFormFailure(form, t('schedules.end.failed'));
  const state = useAffected();
  const end = useEndSchedule();

  async function submit() {
    failure.clear();
    form.clearErrors();
    const decision = decisionOf(state.choice);
    const parsed = validateWith(
      ZScheduleEndQuery,
      { on_bookings: decision.on_bookings, reason: decision.cancel_reason },
      form,
      (path) => (path === 'reason' ? 'cancel_reason' : path),
    );
    if (!parsed) return;
    try {
      await end.mutateAsync({ id: schedule.id, decision });
      toast({ kind: 'success', title: t('schedules.end.done') });
      onClose();
    } catch (error) {
      const list = affectedBookings(error);
      if (list) state.setAffected(list);
      else failure.fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('schedules.end.title')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="end-schedule-form">
        <Text size="sm">
          {t('schedules.end.confirm', {
            provider: schedule.provider.full_name,
            department: schedule.department.name,
          })}
        </Text>
        <AffectedQuestion state={state} reasonError={form.errors.cancel_reason} />
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={t('schedules.end.submit')}
          color="red"
          loading={end.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
