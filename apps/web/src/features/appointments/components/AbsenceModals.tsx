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
import { type UseFormReturnType, useForm } from '@mantine/form';
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

type Decision = ReturnType<typeof decisionOf>;

/**
 * The one form of these dialogs: their fields, then — once the server answered 409 `bookings_affected` — the
 * bookings and the choice, then the footer. A success closes with a toast, a 409 asks the question, other errors
 * are shown.
 */
function BookingsChangeForm<V extends Record<string, unknown>>({
  form,
  texts,
  testId,
  size,
  submitColor,
  pending,
  save,
  onClose,
  children,
}: {
  form: UseFormReturnType<V>;
  /** The dialog's strings: `schedules.<texts>.{title,submit,saved,failed}`. */
  texts: 'absence' | 'holiday' | 'end';
  testId: string;
  size?: string;
  submitColor?: string;
  pending: boolean;
  /** Validates, then sends with the choice on the bookings; null when the fields are wrong (nothing sent). */
  save: (decision: Decision) => Promise<unknown> | null;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('appointments');
  const failure = useFormFailure(form, t(`schedules.${texts}.failed`));
  const [affected, setAffected] = useState<TBookingsConflict['affected'] | null>(null);
  const [choice, setChoice] = useState<BookingsChoice>(NO_CHOICE);
  const reasonError = form.errors.cancel_reason;

  async function submit() {
    failure.clear();
    form.clearErrors();
    try {
      const sent = save(decisionOf(choice));
      if (!sent) return;
      await sent;
      toast({ kind: 'success', title: t(`schedules.${texts}.saved`) });
      onClose();
    } catch (error) {
      const list = affectedBookings(error);
      if (list) setAffected(list);
      else failure.fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={t(`schedules.${texts}.title`)}
      size={size}
      onSubmit={() => void submit()}
    >
      <Stack gap="sm" data-testid={testId}>
        {children}
        {affected && (
          <BookingsAffected
            affected={affected}
            choice={choice}
            onChange={setChoice}
            reasonError={typeof reasonError === 'string' ? reasonError : undefined}
          />
        )}
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={t(`schedules.${texts}.submit`)}
          color={submitColor}
          loading={pending}
        />
      </Stack>
    </ModalForm>
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
  const add = useAddException();

  function save(decision: Decision) {
    const v = form.getValues();
    const body = validateWith(
      ZScheduleExceptionCreate,
      {
        provider: v.provider,
        kind: v.kind,
        start_date: v.start_date,
        end_date: v.end_date,
        reason: v.reason.trim() || null,
        ...decision,
      },
      form,
    );
    return body && add.mutateAsync(body);
  }

  return (
    <BookingsChangeForm
      form={form}
      texts="absence"
      testId="absence-form"
      size="lg"
      pending={add.isPending}
      save={save}
      onClose={onClose}
    >
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
    </BookingsChangeForm>
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
  const add = useAddHoliday();

  function save(decision: Decision) {
    const v = form.getValues();
    const body = validateWith(ZHolidayCreate, { date: v.date, name: v.name, ...decision }, form);
    return body && add.mutateAsync(body);
  }

  return (
    <BookingsChangeForm
      form={form}
      texts="holiday"
      testId="holiday-form"
      pending={add.isPending}
      save={save}
      onClose={onClose}
    >
      <DateField label={t('schedules.holiday.date')} required withAsterisk {...form.getInputProps('date')} />
      <TextInput label={t('schedules.holiday.name')} required withAsterisk {...form.getInputProps('name')} />
    </BookingsChangeForm>
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
  const end = useEndSchedule();

  function save(decision: Decision) {
    const parsed = validateWith(
      ZScheduleEndQuery,
      { on_bookings: decision.on_bookings, reason: decision.cancel_reason },
      form,
      (path) => (path === 'reason' ? 'cancel_reason' : path),
    );
    return parsed && end.mutateAsync({ id: schedule.id, decision });
  }

  return (
    <BookingsChangeForm
      form={form}
      texts="end"
      testId="end-schedule-form"
      submitColor="red"
      pending={end.isPending}
      save={save}
      onClose={onClose}
    >
      <Text size="sm">
        {t('schedules.end.confirm', {
          provider: schedule.provider.full_name,
          department: schedule.department.name,
        })}
      </Text>
    </BookingsChangeForm>
  );
}
