/**
 * The hospital's settings on /admin → Réglages (decision 0021): default consultation duration, opening hours of
 * each weekday, whether notifications ring by default for the hospital's staff, and the times the nursing shifts
 * change (2 to 4 a day, issue 20: the tasks, MAR and handoffs of a shift run from one to the next).
 */
import {
  CONSULTATION_MINUTES_MAX,
  CONSULTATION_MINUTES_MIN,
  EXPIRING_DAYS_MAX,
  EXPIRING_DAYS_MIN,
  type THospitalSettings,
  type TWorkingHours,
  UPLOAD_MAX_MB_MAX,
  UPLOAD_MAX_MB_MIN,
  WEEKDAYS,
  type Weekday,
  ZHospitalSettingsUpdate,
} from '@greensen/shared/contracts/hospital-settings';
import {
  Alert,
  Button,
  Checkbox,
  CloseButton,
  Group,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingHospital, IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeField } from '../../../lib/date-field';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { useHospitalSettings, useUpdateHospitalSettings } from '../../../lib/hospital-settings';
import { DetailQueryState } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';

interface DayValues {
  open: boolean;
  from: string;
  to: string;
}

interface SettingsValues {
  consultation_minutes: number | string;
  notification_sound: boolean;
  dictation_browser_enabled: boolean;
  upload_max_mb: number | string;
  pharmacy_expiring_days: number | string;
  appointment_reminder_time: string;
  days: Record<Weekday, DayValues>;
  shift_times: string[];
  [key: string]: unknown;
}

function valuesOf(settings: THospitalSettings): SettingsValues {
  const days = Object.fromEntries(
    WEEKDAYS.map((day) => {
      const hours = settings.working_hours[day];
      return [day, { open: hours !== null, from: hours?.open ?? '08:00', to: hours?.close ?? '17:00' }];
    }),
  ) as Record<Weekday, DayValues>;
  return {
    consultation_minutes: settings.consultation_minutes,
    notification_sound: settings.notification_sound,
    dictation_browser_enabled: settings.dictation_browser_enabled,
    upload_max_mb: settings.upload_max_mb,
    pharmacy_expiring_days: settings.pharmacy_expiring_days,
    appointment_reminder_time: settings.appointment_reminder_time,
    days,
    shift_times: [...settings.shift_times],
  };
}

function workingHoursOf(days: Record<Weekday, DayValues>): TWorkingHours {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, days[day].open ? { open: days[day].from, close: days[day].to } : null]),
  ) as TWorkingHours;
}

/** `working_hours.mon.close` (the schema's and the server's field) → the form's `days.mon.to`. */
function fieldOf(path: string): string {
  const match = /^working_hours\.(\w+)\.(open|close)$/.exec(path);
  if (!match) return path;
  return `days.${match[1]}.${match[2] === 'open' ? 'from' : 'to'}`;
}

function SettingsForm({ settings }: { settings: THospitalSettings }) {
  const { t } = useTranslation('admin');
  const update = useUpdateHospitalSettings();
  const form = useForm<SettingsValues>({ mode: 'controlled', initialValues: valuesOf(settings) });
  const applyServerErrors = useServerFieldErrors(form);
  const [general, setGeneral] = useState<string | null>(null);

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    const change = validateWith(
      ZHospitalSettingsUpdate,
      {
        consultation_minutes: Number(values.consultation_minutes),
        notification_sound: values.notification_sound,
        dictation_browser_enabled: values.dictation_browser_enabled,
        upload_max_mb: Number(values.upload_max_mb),
        pharmacy_expiring_days: Number(values.pharmacy_expiring_days),
        appointment_reminder_time: values.appointment_reminder_time,
        working_hours: workingHoursOf(values.days),
        shift_times: values.shift_times,
      },
      form,
      fieldOf,
    );
    if (!change) return;
    try {
      // The saved settings come back in the query: the form starts again from them (its key changes).
      await update.mutateAsync(change);
      toast({ kind: 'success', title: t('hospitalSettings.saved') });
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? t('hospitalSettings.failed'));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {general && <Alert color="red">{general}</Alert>}
        <NumberInput
          label={t('hospitalSettings.duration')}
          description={t('hospitalSettings.durationHint', {
            min: CONSULTATION_MINUTES_MIN,
            max: CONSULTATION_MINUTES_MAX,
          })}
          min={CONSULTATION_MINUTES_MIN}
          max={CONSULTATION_MINUTES_MAX}
          step={5}
          allowDecimal={false}
          suffix=" min"
          maw={260}
          {...form.getInputProps('consultation_minutes')}
        />
        <NumberInput
          label={t('hospitalSettings.uploadMax')}
          description={t('hospitalSettings.uploadMaxHint', {
            min: UPLOAD_MAX_MB_MIN,
            max: UPLOAD_MAX_MB_MAX,
          })}
          min={UPLOAD_MAX_MB_MIN}
          max={UPLOAD_MAX_MB_MAX}
          allowDecimal={false}
          suffix=" Mo"
          maw={260}
          {...form.getInputProps('upload_max_mb')}
        />
        <NumberInput
          label={t('hospitalSettings.expiringDays')}
          description={t('hospitalSettings.expiringDaysHint', {
            min: EXPIRING_DAYS_MIN,
            max: EXPIRING_DAYS_MAX,
          })}
          min={EXPIRING_DAYS_MIN}
          max={EXPIRING_DAYS_MAX}
          allowDecimal={false}
          maw={260}
          {...form.getInputProps('pharmacy_expiring_days')}
        />
        <TimeField
          label={t('hospitalSettings.reminderTime')}
          description={t('hospitalSettings.reminderTimeHint')}
          w={260}
          {...form.getInputProps('appointment_reminder_time')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('hospitalSettings.hours')}
          </Text>
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing={4} data-testid="working-hours">
              <Table.Tbody>
                {WEEKDAYS.map((day) => {
                  const open = form.getValues().days[day].open;
                  return (
                    <Table.Tr key={day}>
                      <Table.Td w={150}>
                        <Checkbox
                          label={t(`hospitalSettings.days.${day}`)}
                          {...form.getInputProps(`days.${day}.open`, { type: 'checkbox' })}
                        />
                      </Table.Td>
                      <Table.Td>
                        {open ? (
                          <Group gap="xs" wrap="nowrap" align="flex-start">
                            <TimeField
                              aria-label={t('hospitalSettings.opens', {
                                day: t(`hospitalSettings.days.${day}`),
                              })}
                              w={130}
                              {...form.getInputProps(`days.${day}.from`)}
                            />
                            <Text pt={6}>–</Text>
                            <TimeField
                              aria-label={t('hospitalSettings.closes', {
                                day: t(`hospitalSettings.days.${day}`),
                              })}
                              w={130}
                              {...form.getInputProps(`days.${day}.to`)}
                            />
                          </Group>
                        ) : (
                          <Text size="sm" c="dimmed">
                            {t('hospitalSettings.closed')}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('hospitalSettings.shifts')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('hospitalSettings.shiftsHint')}
          </Text>
          <Group gap="xs" align="flex-end">
            {form.values.shift_times.map((_, index) => (
              <Group key={`shift-${index.toString()}`} gap={4} align="flex-end" wrap="nowrap">
                <TimeField
                  w={130}
                  aria-label={t('hospitalSettings.shiftAt', { n: index + 1 })}
                  {...form.getInputProps(`shift_times.${index}`)}
                />
                {form.values.shift_times.length > 2 && (
                  <CloseButton
                    aria-label={t('hospitalSettings.shiftRemove', { n: index + 1 })}
                    onClick={() => form.removeListItem('shift_times', index)}
                  />
                )}
              </Group>
            ))}
            {form.values.shift_times.length < 4 && (
              <Button
                variant="default"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('shift_times', '')}
              >
                {t('hospitalSettings.shiftAdd')}
              </Button>
            )}
          </Group>
          {typeof form.errors.shift_times === 'string' && (
            <Text size="sm" c="red">
              {form.errors.shift_times}
            </Text>
          )}
        </Stack>
        <Switch
          label={t('hospitalSettings.sound')}
          description={t('hospitalSettings.soundHint')}
          {...form.getInputProps('notification_sound', { type: 'checkbox' })}
        />
        <Switch
          label={t('hospitalSettings.dictationBrowser')}
          description={t('hospitalSettings.dictationBrowserHint')}
          {...form.getInputProps('dictation_browser_enabled', { type: 'checkbox' })}
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {settings.updated_at
              ? t('hospitalSettings.updated', {
                  date: formatDateTime(settings.updated_at),
                  name: settings.updated_by?.full_name ?? '—',
                })
              : t('hospitalSettings.defaults')}
          </Text>
          <Button
            type="submit"
            loading={update.isPending}
            disabled={!form.isDirty()}
            leftSection={<IconDeviceFloppy size={18} />}
          >
            {t('hospitalSettings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function HospitalSettingsPanel() {
  const { t } = useTranslation('admin');
  const query = useHospitalSettings();
  return (
    <Paper withBorder radius="md" p="md" data-testid="hospital-settings-panel">
      <Stack gap="sm">
        <Group gap="xs">
          <IconBuildingHospital size={20} />
          <Text fw={600}>{t('hospitalSettings.title')}</Text>
        </Group>
        {query.isPending || query.isError ? (
          <DetailQueryState query={query} blocks={[60, 200]} />
        ) : (
          <SettingsForm key={query.data.updated_at ?? 'defaults'} settings={query.data} />
        )}
      </Stack>
    </Paper>
  );
}
