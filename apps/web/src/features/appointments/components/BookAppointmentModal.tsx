/**
 * Book an appointment: the patient (the shared patient search), a provider or a department's "first available",
 * the type, the free slots from the server (two weeks from a date), the reason and notes. Validated with the
 * contract's schema; the server's field errors shown as returned. When the last place of the chosen slot was just
 * taken (409), the form says so plainly and the slots are asked again. Head doctors may overbook a full slot
 * (explicit switch; the server records it). Opened from the calendar with a slot, it comes prefilled. A patient who
 * has no record yet is registered on the spot (the patients' registration dialog, its duplicate warning included)
 * and picked; a probable duplicate can be picked instead.
 */

import { type TAppointment, type TSlot, ZAppointmentCreate } from '@greensen/shared/contracts/appointments';
import { receivesPatients } from '@greensen/shared/domain/admissions';
import { APPOINTMENT_TYPES, type AppointmentType } from '@greensen/shared/domain/appointments';
import {
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBolt, IconCalendarPlus, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { SLOTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { type FixedPatient, PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { RegisterPatientModal } from '../../../lib/clinical/components/RegisterPatientModal';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateAppointment } from '../api/create-appointment';
import { useScheduleProviders } from '../api/list-providers';
import { useSlots } from '../api/list-slots';
import { SlotPicker, SlotTakenAlert } from './SlotPicker';
import { addDaysTo, formatSlotRange, localDate, slotKey } from './slot-format';

/** How many days of slots the form shows from its date. */
export const SLOT_WINDOW_DAYS = 14;

export interface BookingPrefill {
  provider?: string | null;
  department?: string | null;
  /** A slot's start (ISO instant), chosen when the search answers it. */
  start?: string | null;
  patient?: FixedPatient | null;
  /** The day free slots are searched from (`YYYY-MM-DD`), when no slot is chosen: a follow-up's date. */
  from?: string | null;
  type?: AppointmentType | null;
}

interface BookingValues {
  patient: string;
  provider: string;
  department: string;
  appointment_type: AppointmentType | '';
  start: string;
  reason: string;
  notes: string;
  [key: string]: unknown;
}

type Mode = 'provider' | 'department';

export function BookAppointmentModal({
  opened,
  onClose,
  onBooked,
  prefill,
}: {
  opened: boolean;
  onClose: () => void;
  onBooked: (appointment: TAppointment) => void;
  prefill?: BookingPrefill | null;
}) {
  // Mounted per opening: the prefill is read once.
  if (!opened) return null;
  return <BookingForm onClose={onClose} onBooked={onBooked} prefill={prefill ?? null} />;
}

function BookingForm({
  onClose,
  onBooked,
  prefill,
}: {
  onClose: () => void;
  onBooked: (appointment: TAppointment) => void;
  prefill: BookingPrefill | null;
}) {
  const { t } = useTranslation('appointments');
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const mayOverbook = can('appointment.overbook');
  const form = useForm<BookingValues>({
    initialValues: {
      patient: prefill?.patient?.id ?? '',
      provider: prefill?.provider ?? '',
      department: prefill?.department ?? '',
      appointment_type: prefill?.type ?? '',
      start: '',
      reason: '',
      notes: '',
    },
  });
  const values = form.getValues();
  const failure = useFormFailure(form, t('book.failed'));
  const [mode, setMode] = useState<Mode>('provider');
  const [from, setFrom] = useState(() => {
    const today = localDate(new Date());
    if (prefill?.start) return localDate(prefill.start);
    return prefill?.from && prefill.from > today ? prefill.from : today;
  });
  const [chosen, setChosen] = useState<string>(
    prefill?.start && prefill.provider ? `${prefill.start}|${prefill.provider}` : '',
  );
  const [overbook, setOverbook] = useState(false);
  const [taken, setTaken] = useState<string | null>(null);
  const [registering, setRegistering] = useState(false);
  // The patient registered on the spot (or a duplicate picked instead), shown by the picker.
  const [known, setKnown] = useState<FixedPatient | null>(null);
  const mayRegister = can('patient.register') && !prefill?.patient;
  const create = useCreateAppointment();

  const departments = useDepartments();
  const providers = useScheduleProviders(values.department || null);
  const departmentOptions = (departments.data?.results ?? [])
    .filter((d) => d.is_active && receivesPatients(d.kind))
    .map((d) => ({ value: d.id, label: d.name }));
  const providerOptions = (providers.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }));

  const target = mode === 'provider' ? values.provider : values.department;
  const slots = useSlots(
    {
      provider: mode === 'provider' ? values.provider || null : null,
      department: values.department || null,
      from,
      to: addDaysTo(from, SLOT_WINDOW_DAYS - 1),
      type: values.appointment_type || null,
      freeOnly: !overbook,
      limit: 200,
    },
    Boolean(target),
  );
  const chosenSlot = (slots.data?.results ?? []).find((s) => slotKey(s) === chosen) ?? null;
  const firstFree = (slots.data?.results ?? []).find((s) => s.free > 0) ?? null;

  function pick(slot: TSlot) {
    setChosen(slotKey(slot));
    setTaken(null);
    form.setFieldValue('start', slot.start);
    form.clearFieldError('start');
  }

  function changeTarget(field: 'provider' | 'department', value: string | null) {
    form.setFieldValue(field, value ?? '');
    if (field === 'department' && mode === 'provider') {
      // The provider list follows the department: a provider outside it is dropped.
      const stillThere = (providers.data?.results ?? []).some(
        (p) => p.id === values.provider && p.departments.some((d) => d.id === value),
      );
      if (value && !stillThere) form.setFieldValue('provider', '');
    }
    setChosen('');
    setTaken(null);
  }

  async function submit() {
    failure.clear();
    setTaken(null);
    const slot = chosenSlot;
    const body = validateWith(
      ZAppointmentCreate,
      {
        patient: values.patient,
        provider: slot?.provider.id ?? '',
        department: slot?.department ?? '',
        start: slot?.start ?? '',
        appointment_type: values.appointment_type || undefined,
        reason: values.reason,
        notes: values.notes.trim() || null,
        ...(overbook && slot && slot.free <= 0 ? { overbook: true } : {}),
      },
      form,
      (path) => (path === 'provider' || path === 'department' ? 'start' : path),
    );
    if (!body) return;
    try {
      const appointment = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('book.done'),
        description: `${appointment.patient.full_name} · ${formatSlotRange(appointment.start, appointment.end)}`,
      });
      onBooked(appointment);
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        // The last place was just taken: say so, forget the slot and ask the server again.
        setTaken(error.detail ?? t('book.takenHint'));
        setChosen('');
        form.setFieldValue('start', '');
        void queryClient.invalidateQueries({ queryKey: SLOTS_KEY });
        return;
      }
      failure.fail(error);
    }
  }

  function pickPatient(patient: FixedPatient) {
    setRegistering(false);
    setKnown(patient);
    form.setFieldValue('patient', patient.id);
    form.clearFieldError('patient');
  }

  return (
    <>
      <ModalForm opened onClose={onClose} title={t('book.title')} size="xl" onSubmit={() => void submit()}>
        <Stack gap="sm" data-testid="booking-form">
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <PatientPicker
              label={t('book.patient')}
              nothingFound={t('book.noPatient')}
              fixed={prefill?.patient ?? null}
              known={known}
              value={values.patient}
              onChange={(id) => form.setFieldValue('patient', id)}
              error={form.errors.patient}
              style={{ flex: 1 }}
            />
            {mayRegister && (
              <Button
                variant="default"
                leftSection={<IconUserPlus size={16} />}
                onClick={() => setRegistering(true)}
                data-testid="register-patient"
                mb={form.errors.patient ? 22 : 0}
              >
                {t('book.registerPatient')}
              </Button>
            )}
          </Group>
          <SegmentedControl
            fullWidth
            value={mode}
            onChange={(next) => {
              setMode(next as Mode);
              setChosen('');
              setTaken(null);
            }}
            data={[
              { value: 'provider', label: t('book.modeProvider') },
              { value: 'department', label: t('book.modeDepartment') },
            ]}
            aria-label={t('book.mode')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Select
              label={t('book.department')}
              placeholder={mode === 'provider' ? t('book.anyDepartment') : undefined}
              required={mode === 'department'}
              withAsterisk={mode === 'department'}
              data={departmentOptions}
              searchable
              clearable
              value={values.department || null}
              onChange={(value) => changeTarget('department', value)}
              error={form.errors.department}
            />
            {mode === 'provider' && (
              <Select
                label={t('book.provider')}
                required
                withAsterisk
                data={providerOptions}
                searchable
                value={values.provider || null}
                onChange={(value) => changeTarget('provider', value)}
                nothingFoundMessage={t('book.noProvider')}
                error={form.errors.provider}
              />
            )}
            <Select
              label={t('book.type')}
              required
              withAsterisk
              data={APPOINTMENT_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
              value={values.appointment_type || null}
              onChange={(value) => {
                form.setFieldValue('appointment_type', (value ?? '') as AppointmentType | '');
                setChosen('');
              }}
              error={form.errors.appointment_type}
            />
            <DateField label={t('book.from')} value={from} onChange={(value) => value && setFrom(value)} />
          </SimpleGrid>
          {mayOverbook && (
            <Switch
              label={t('book.overbook')}
              description={t('book.overbookHint')}
              checked={overbook}
              onChange={(event) => {
                setOverbook(event.currentTarget.checked);
                setChosen('');
              }}
              data-testid="overbook-switch"
            />
          )}
          {taken && <SlotTakenAlert detail={taken} />}
          {target ? (
            <>
              {mode === 'department' && firstFree && (
                <Group gap="xs">
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconBolt size={14} />}
                    onClick={() => pick(firstFree)}
                    data-testid="first-available"
                  >
                    {t('book.firstAvailable', {
                      when: formatSlotRange(firstFree.start, firstFree.end),
                      provider: firstFree.provider.full_name,
                    })}
                  </Button>
                </Group>
              )}
              <SlotPicker
                label={t('book.slot')}
                query={slots}
                value={chosen}
                onChange={pick}
                showProvider={mode === 'department'}
                error={form.errors.start}
              />
            </>
          ) : (
            <Text size="sm" c="dimmed" data-testid="slots-hint">
              {mode === 'provider' ? t('book.pickProvider') : t('book.pickDepartment')}
            </Text>
          )}
          {chosenSlot && (
            <Text size="sm" data-testid="chosen-slot">
              {t('book.chosen', {
                when: formatSlotRange(chosenSlot.start, chosenSlot.end),
                provider: chosenSlot.provider.full_name,
              })}
            </Text>
          )}
          <Textarea
            label={t('book.reason')}
            required
            withAsterisk
            autosize
            minRows={2}
            {...form.getInputProps('reason')}
          />
          <Textarea label={t('book.notes')} autosize minRows={2} {...form.getInputProps('notes')} />
          <FormFooter
            general={failure.general}
            onCancel={onClose}
            submitLabel={t('book.submit')}
            loading={create.isPending}
            leftSection={<IconCalendarPlus size={16} />}
          />
        </Stack>
      </ModalForm>
      {/* Beside the booking form, not inside it: its own form's submit stays its own. */}
      {mayRegister && (
        <RegisterPatientModal
          opened={registering}
          onClose={() => setRegistering(false)}
          onCreated={pickPatient}
          onOpenExisting={pickPatient}
          openExistingLabel={t('book.pickExisting')}
        />
      )}
    </>
  );
}
