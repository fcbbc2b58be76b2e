/**
 * A provider's weekly schedule (issue 22): the sessions of each weekday, the slot length, the places per slot, the
 * appointment types, the validity. Three uses: a new weekly schedule, a change of one (provider and department
 * fixed), and an "extra session" — a schedule valid on one date only, which the slot search expands like any other
 * (decision 0037). Validated with the server's schemas; a change that leaves future bookings out asks what to do
 * with them (409 `bookings_affected`).
 */
import {
  type TBookingsConflict,
  type TSchedule,
  ZScheduleCreate,
  ZScheduleUpdate,
} from '@greensen/shared/contracts/appointments';
import {
  APPOINTMENT_TYPES,
  SLOT_CAPACITY_MAX,
  SLOT_MINUTES_MAX,
  SLOT_MINUTES_MIN,
  WEEKDAY_CODES,
  type WeekdayCode,
  weekdayOf,
} from '@greensen/shared/domain/appointments';
import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { DateField, TimeField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useScheduleProviders } from '../api/list-providers';
import { affectedBookings, useCreateSchedule, useUpdateSchedule } from '../api/schedules';
import { BookingsAffected, type BookingsChoice, decisionOf, NO_CHOICE } from './BookingsAffected';
import { localDate } from './slot-format';

export type ScheduleFormMode = 'create' | 'edit' | 'extra';

interface SessionValues {
  /** The row's identity in the list (not sent). */
  key: string;
  weekday: WeekdayCode;
  start: string;
  end: string;
}

interface ScheduleValues {
  provider: string;
  department: string;
  sessions: SessionValues[];
  slot_minutes: number | string;
  capacity: number | string;
  types: string[];
  valid_from: string;
  valid_until: string;
  note: string;
  [key: string]: unknown;
}

function initialValues(schedule: TSchedule | null, today: string): ScheduleValues {
  if (schedule)
    return {
      provider: schedule.provider.id,
      department: schedule.department.id,
      sessions: schedule.sessions.map((s) => ({ ...s, key: randomId() })),
      slot_minutes: schedule.slot_minutes,
      capacity: schedule.capacity,
      types: [...schedule.types],
      valid_from: schedule.valid_from,
      valid_until: schedule.valid_until ?? '',
      note: schedule.note ?? '',
    };
  return {
    provider: '',
    department: '',
    sessions: [{ key: randomId(), weekday: 'mon', start: '08:00', end: '12:00' }],
    slot_minutes: 20,
    capacity: 1,
    types: ['new', 'follow_up'],
    valid_from: today,
    valid_until: '',
    note: '',
  };
}

export function ScheduleFormModal({
  mode,
  schedule,
  onClose,
}: {
  /** null: closed. */
  mode: ScheduleFormMode | null;
  /** The schedule changed (mode `edit`). */
  schedule?: TSchedule | null;
  onClose: () => void;
}) {
  if (!mode) return null;
  return <ScheduleForm mode={mode} schedule={schedule ?? null} onClose={onClose} />;
}

function ScheduleForm({
  mode,
  schedule,
  onClose,
}: {
  mode: ScheduleFormMode;
  schedule: TSchedule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('appointments');
  const today = localDate(new Date());
  const form = useForm<ScheduleValues>({ initialValues: initialValues(schedule, today) });
  const failure = useFormFailure(form, t('schedules.form.failed'));
  const [affected, setAffected] = useState<TBookingsConflict['affected'] | null>(null);
  const [choice, setChoice] = useState<BookingsChoice>(NO_CHOICE);
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const departments = useDepartments();
  // Everyone who may hold a schedule (doctors, midwives, nurses), with one or not yet.
  const candidates = useScheduleProviders(null, true, true);
  const values = form.getValues();
  const editing = mode === 'edit' && schedule !== null;

  const providerOptions = new Map<string, string>();
  for (const p of candidates.data?.results ?? []) providerOptions.set(p.id, p.full_name);
  if (schedule) providerOptions.set(schedule.provider.id, schedule.provider.full_name);
  const departmentOptions = (departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }));
  if (schedule && !departmentOptions.some((d) => d.value === schedule.department.id))
    departmentOptions.push({ value: schedule.department.id, label: schedule.department.name });

  function fields() {
    const v = form.getValues();
    // An extra session: one date, its sessions on that date's weekday.
    const sessions = v.sessions.map(({ key: _key, ...s }) =>
      mode === 'extra' && v.valid_from ? { ...s, weekday: weekdayOf(v.valid_from) } : s,
    );
    return {
      sessions,
      slot_minutes: v.slot_minutes === '' ? Number.NaN : Number(v.slot_minutes),
      capacity: v.capacity === '' ? Number.NaN : Number(v.capacity),
      types: v.types,
      valid_from: v.valid_from,
      valid_until: mode === 'extra' ? v.valid_from : v.valid_until || null,
      note: v.note.trim() || null,
    };
  }

  async function submit() {
    failure.clear();
    form.clearErrors();
    const v = form.getValues();
    try {
      if (editing) {
        const body = validateWith(ZScheduleUpdate, { ...fields(), ...decisionOf(choice) }, form);
        if (!body) return;
        await update.mutateAsync({ id: schedule.id, body });
        toast({ kind: 'success', title: t('schedules.form.saved') });
      } else {
        const body = validateWith(
          ZScheduleCreate,
          { provider: v.provider, department: v.department, ...fields() },
          form,
        );
        if (!body) return;
        await create.mutateAsync(body);
        toast({
          kind: 'success',
          title: t(mode === 'extra' ? 'schedules.extra.saved' : 'schedules.form.created'),
        });
      }
      onClose();
    } catch (error) {
      const list = affectedBookings(error);
      if (list) {
        setAffected(list);
        return;
      }
      failure.fail(error);
    }
  }

  const title = editing
    ? t('schedules.form.editTitle', { name: schedule.provider.full_name })
    : mode === 'extra'
      ? t('schedules.extra.title')
      : t('schedules.form.createTitle');

  return (
    <ModalForm opened onClose={onClose} title={title} size="xl" onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="schedule-form">
        {mode === 'extra' && (
          <Text size="sm" c="dimmed">
            {t('schedules.extra.hint')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('schedules.form.provider')}
            data={[...providerOptions].map(([value, label]) => ({ value, label }))}
            searchable
            required
            withAsterisk
            disabled={editing}
            {...form.getInputProps('provider')}
          />
          <Select
            label={t('schedules.form.department')}
            data={departmentOptions}
            searchable
            required
            withAsterisk
            disabled={editing}
            {...form.getInputProps('department')}
          />
        </SimpleGrid>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {mode === 'extra' ? t('schedules.extra.hours') : t('schedules.form.sessions')}
          </Text>
          {values.sessions.map((session, index) => (
            <Group key={session.key} gap="xs" align="flex-start" wrap="wrap">
              {mode !== 'extra' && (
                <Select
                  aria-label={t('schedules.form.weekday')}
                  data={WEEKDAY_CODES.map((d) => ({ value: d, label: t(`schedules.weekday.${d}`) }))}
                  allowDeselect={false}
                  w={150}
                  {...form.getInputProps(`sessions.${index}.weekday`)}
                />
              )}
              <TimeField
                aria-label={t('schedules.form.start')}
                w={130}
                {...form.getInputProps(`sessions.${index}.start`)}
              />
              <TimeField
                aria-label={t('schedules.form.end')}
                w={130}
                {...form.getInputProps(`sessions.${index}.end`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('schedules.form.removeSession')}
                disabled={values.sessions.length <= 1}
                onClick={() => form.removeListItem('sessions', index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {typeof form.errors.sessions === 'string' && (
            <Text size="sm" c="red" role="alert">
              {form.errors.sessions}
            </Text>
          )}
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} />}
            style={{ alignSelf: 'flex-start' }}
            disabled={values.sessions.length >= 21}
            onClick={() => {
              const last = values.sessions.at(-1);
              form.insertListItem('sessions', {
                key: randomId(),
                weekday: last?.weekday ?? 'mon',
                start: '14:00',
                end: '17:00',
              });
            }}
          >
            {t('schedules.form.addSession')}
          </Button>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NumberInput
            label={t('schedules.form.slotMinutes')}
            min={SLOT_MINUTES_MIN}
            max={SLOT_MINUTES_MAX}
            allowDecimal={false}
            required
            withAsterisk
            {...form.getInputProps('slot_minutes')}
          />
          <NumberInput
            label={t('schedules.form.capacity')}
            description={t('schedules.form.capacityHint')}
            min={1}
            max={SLOT_CAPACITY_MAX}
            allowDecimal={false}
            required
            withAsterisk
            {...form.getInputProps('capacity')}
          />
          <MultiSelect
            label={t('schedules.form.types')}
            data={APPOINTMENT_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
            required
            withAsterisk
            {...form.getInputProps('types')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <DateField
            label={mode === 'extra' ? t('schedules.extra.date') : t('schedules.form.validFrom')}
            required
            withAsterisk
            {...form.getInputProps('valid_from')}
          />
          {mode !== 'extra' && (
            <DateField
              label={t('schedules.form.validUntil')}
              description={t('schedules.form.validUntilHint')}
              {...form.getInputProps('valid_until')}
            />
          )}
        </SimpleGrid>
        <Textarea label={t('schedules.form.note')} autosize minRows={1} {...form.getInputProps('note')} />
        {affected && (
          <BookingsAffected
            affected={affected}
            choice={choice}
            onChange={setChoice}
            reasonError={form.errors.cancel_reason as string | undefined}
          />
        )}
        <FormFooter
          general={failure.general}
          onCancel={onClose}
          submitLabel={editing ? t('schedules.form.save') : t('schedules.form.create')}
          loading={create.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
