/**
 * /calendar: the appointments of "mine", a provider or a department in a day, week or month view (the
 * library's chunk loads lazily with the view), coloured by type and styled by status, with the free capacity;
 * a click on a free place opens the booking form prefilled, a click on an appointment opens it, dragging one to a
 * free slot of its provider reschedules it (the keyboard alternative is "Reprogrammer" on the appointment). Day
 * cells lose focus when clicked (spec §2). Below, my personal iCalendar link.
 */
import type { TAppointment, TSlot } from '@greensen/shared/contracts/appointments';
import { APPOINTMENT_TYPES } from '@greensen/shared/domain/appointments';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { APPOINTMENT_TYPE_COLORS } from '../../../lib/clinical/components/AppointmentBadges';
import { screenStillLoading } from '../../../lib/first-data';
import { lazyComponent } from '../../../lib/lazy-component';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { useModuleAccess, usePermissions } from '../../../lib/permissions';
import { preloadWhenIdle } from '../../../lib/preload';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useUserStore } from '../../../stores/user';
import { useAppointmentWindow } from '../api/list-appointments';
import { useScheduleProviders } from '../api/list-providers';
import { useSlots } from '../api/list-slots';
import { useRescheduleAppointment } from '../api/reschedule';
import type { BookingPrefill } from '../components/BookAppointmentModal';
import {
  appointmentEvents,
  CALENDAR_VIEWS,
  type CalendarItem,
  dropsOnFreeSlot,
  freeEvents,
} from '../components/calendar-events';
import { loadAppointmentCalendar } from '../components/calendar-loader';
import { stepDate, viewTitle } from '../components/calendar-range';
import { IcsLinkPanel } from '../components/IcsLinkPanel';
import { capitalizeFirst, formatSlotRange, localDate } from '../components/slot-format';
import { CALENDAR_SCOPES, calendarChoice, calendarRights } from './calendar-first';

/** The calendar library's chunk (decision 0031): loaded with the view, never with the other pages. */
const AppointmentCalendar = lazyComponent(loadAppointmentCalendar);
// The booking form (the patient picker, the registration form and their fields) and the schedules' tab are not
// part of the first screen: their chunks come once asked for, or when the browser is idle after it (issue 38).
const loadBooking = () => import('../components/BookAppointmentModal');
const BookAppointmentModal = lazy(() => loadBooking().then((m) => ({ default: m.BookAppointmentModal })));
/** Whether the booking form was opened once; its chunk is fetched when the browser is idle after the first screen. */
function useBookingUsed(open: boolean): boolean {
  const queryClient = useQueryClient();
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  useEffect(() => preloadWhenIdle([loadBooking], screenStillLoading(queryClient)), [queryClient]);
  return used;
}
const SchedulesPanel = lazy(() =>
  import('../components/SchedulesPanel').then((m) => ({ default: m.SchedulesPanel })),
);

export default function CalendarPage() {
  const { t, i18n } = useTranslation('appointments');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const permissions = usePermissions();
  // The calendar's appointments are the appointments module's: the module guard's rule decides (issue 36).
  const access = useModuleAccess('appointments');
  const { mayRead, mayBook } = calendarRights(permissions, access);
  const currentDepartment = useUserStore((state) => state.currentDepartmentId);
  const [params, setParams] = useSearchParams();
  const [showCancelled, setShowCancelled] = useState(false);
  const [prefill, setPrefill] = useState<BookingPrefill | null>(null);
  // Mounted from the first booking on (and kept, for the modal's closing transition).
  const bookingUsed = useBookingUsed(prefill !== null);
  const locale = i18n.language === 'en' ? 'en-GB' : 'fr-FR';
  // The view, the date and the scope as the app's start decides them too (calendar-first.ts).
  const choice = calendarChoice(
    params,
    { ...permissions, mayRead, mayBook, currentDepartment },
    showCancelled,
  );
  const { today, view, date, scope, provider, department, tab, ready } = choice;

  function update(next: Record<string, string | null>) {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged, { replace: true });
  }

  const departments = useDepartments();
  const providers = useScheduleProviders(null, mayRead);
  const appointments = useAppointmentWindow(choice.appointments.filters, choice.appointments.enabled);
  const slots = useSlots(choice.slots.params, choice.slots.enabled);
  const move = useRescheduleAppointment();

  const slotList: TSlot[] = slots.data?.results ?? [];
  const events = useMemo(() => {
    const texts = {
      type: (type: TAppointment['appointment_type']) => t(`type.${type}`),
      free: (free: number, capacity: number) => t('calendar.free', { count: free, capacity }),
      freeDay: (free: number, name: string) =>
        scope === 'mine'
          ? t('calendar.freeDay', { count: free })
          : `${t('calendar.freeDay', { count: free })} · ${name}`,
    };
    const showProvider = scope === 'department';
    return [
      ...freeEvents(mayBook ? slotList : [], view, texts, showProvider),
      ...appointmentEvents(appointments.data?.results ?? [], texts, { canMove: mayBook, showProvider }),
    ];
  }, [appointments.data, slotList, view, scope, mayBook, t]);

  function onItemClick(item: CalendarItem) {
    if (item.kind === 'appointment') navigate(to(`/appointments/${item.appointment.id}`));
    else if (item.kind === 'slot')
      setPrefill({
        provider: item.slot.provider.id,
        department: item.slot.department,
        start: item.slot.start,
      });
    else update({ view: 'timeGridDay', date: item.date });
  }

  function onMove(item: CalendarItem, start: Date, revert: () => void) {
    if (item.kind !== 'appointment') return revert();
    const appointment = item.appointment;
    move.mutate(
      { id: appointment.id, body: { start: start.toISOString() } },
      {
        onSuccess: (moved) =>
          toast({
            kind: 'success',
            title: t('reschedule.done'),
            description: `${moved.patient.full_name} · ${formatSlotRange(moved.start, moved.end)}`,
          }),
        onError: (error) => {
          revert();
          if (!isApiError(error) || error.status === 403 || error.status === 404) return;
          toast({
            kind: 'error',
            title: error.status === 409 ? t('book.takenTitle') : t('reschedule.failed'),
            description: error.message,
          });
        },
      },
    );
  }

  const scopePicker =
    scope === 'provider' ? (
      <Select
        aria-label={t('calendar.provider')}
        placeholder={t('calendar.provider')}
        data={(providers.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }))}
        value={provider}
        onChange={(value) => update({ provider: value })}
        searchable
        w={240}
      />
    ) : scope === 'department' ? (
      <Select
        aria-label={t('calendar.department')}
        placeholder={t('calendar.department')}
        data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
        value={department}
        onChange={(value) => update({ department: value })}
        searchable
        w={240}
      />
    ) : null;

  return (
    <Stack gap="md" data-testid="calendar-page">
      <PageHeader title={t('calendar.title')} subtitle={t('calendar.subtitle')} />
      <Tabs
        value={tab}
        onChange={(value) =>
          update({ tab: value === 'schedules' ? 'schedules' : mayRead ? null : 'calendar' })
        }
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="calendar">{t('calendar.tabCalendar')}</Tabs.Tab>
          <Tabs.Tab value="schedules" data-testid="tab-schedules">
            {t('calendar.tabSchedules')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'schedules' ? (
        <Suspense fallback={<Skeleton h={240} />}>
          <SchedulesPanel />
        </Suspense>
      ) : (
        <>
          {!mayRead && (
            <Alert color="gray" data-testid="calendar-not-for-role">
              {access.allowed ? null : access.message[i18n.language === 'en' ? 'en' : 'fr']}
            </Alert>
          )}
          <Paper withBorder radius="md" p="sm">
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Group gap="xs" wrap="wrap">
                  {mayRead && (
                    <SegmentedControl
                      value={scope}
                      onChange={(value) => update({ scope: value })}
                      data={CALENDAR_SCOPES.map((s) => ({ value: s, label: t(`calendar.scope.${s}`) }))}
                      aria-label={t('calendar.scopeLabel')}
                    />
                  )}
                  {mayRead && scopePicker}
                </Group>
                <SegmentedControl
                  value={view}
                  onChange={(value) => update({ view: value })}
                  data={CALENDAR_VIEWS.map((v) => ({ value: v, label: t(`calendar.view.${v}`) }))}
                  aria-label={t('calendar.viewLabel')}
                  data-testid="calendar-views"
                />
              </Group>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap={4}>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={t('calendar.previous')}
                    onClick={() => update({ date: stepDate(view, date, -1) })}
                  >
                    <IconChevronLeft size={18} />
                  </ActionIcon>
                  <Button variant="default" onClick={() => update({ date: today })}>
                    {t('calendar.today')}
                  </Button>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={t('calendar.next')}
                    onClick={() => update({ date: stepDate(view, date, 1) })}
                  >
                    <IconChevronRight size={18} />
                  </ActionIcon>
                  <Title order={4} ml="xs" data-testid="calendar-title">
                    {capitalizeFirst(viewTitle(view, date, locale))}
                  </Title>
                </Group>
                {mayRead && (
                  <Switch
                    label={t('calendar.showCancelled')}
                    checked={showCancelled}
                    onChange={(event) => setShowCancelled(event.currentTarget.checked)}
                  />
                )}
              </Group>
              <Group gap={6} wrap="wrap" data-testid="calendar-legend">
                {APPOINTMENT_TYPES.map((type) => (
                  <Badge key={type} color={APPOINTMENT_TYPE_COLORS[type]} variant="filled" size="sm">
                    {t(`type.${type}`)}
                  </Badge>
                ))}
                {mayBook && (
                  <Badge color="green" variant="outline" size="sm" style={{ borderStyle: 'dashed' }}>
                    {t('calendar.freeLegend')}
                  </Badge>
                )}
                <Text size="xs" c="dimmed">
                  {t('calendar.statusLegend')}
                </Text>
              </Group>
              {appointments.isError && (
                <LoadError error={appointments.error} onRetry={() => void appointments.refetch()} />
              )}
              {appointments.data?.truncated && (
                <Alert color="yellow" p="xs">
                  {t('calendar.truncated')}
                </Alert>
              )}
              {mayRead && !ready && (
                <Text size="sm" c="dimmed">
                  {scope === 'provider' ? t('calendar.pickProvider') : t('calendar.pickDepartment')}
                </Text>
              )}
              {mayRead && ready && appointments.isSuccess && events.length === 0 && (
                <Text size="sm" c="dimmed" data-testid="calendar-empty">
                  {t('calendar.empty')}
                </Text>
              )}
              <Suspense fallback={<Skeleton h={480} data-testid="calendar-loading" />}>
                <AppointmentCalendar
                  view={view}
                  date={date}
                  events={events}
                  locale={locale}
                  allDayText={t('calendar.allDay')}
                  onItemClick={onItemClick}
                  onDateClick={(clicked, allDay) => {
                    if (view === 'dayGridMonth' && allDay)
                      update({ view: 'timeGridDay', date: localDate(clicked) });
                  }}
                  onMove={onMove}
                  canDrop={(item, start) =>
                    item.kind === 'appointment' && dropsOnFreeSlot(slotList, item.appointment, start)
                  }
                />
              </Suspense>
            </Stack>
          </Paper>
          <IcsLinkPanel />
        </>
      )}
      {bookingUsed && (
        <Suspense fallback={null}>
          <BookAppointmentModal
            opened={prefill !== null}
            prefill={prefill}
            onClose={() => setPrefill(null)}
            onBooked={(appointment) => {
              setPrefill(null);
              navigate(to(`/appointments/${appointment.id}`));
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}
