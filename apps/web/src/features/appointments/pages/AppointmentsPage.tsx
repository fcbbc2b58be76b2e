/**
 * /appointments (Rendez-vous): the hospital's appointments with filters (dates, provider, department, status),
 * server-paginated in time order, and "Nouveau rendez-vous" (the booking dialog) for those who book. Who opens
 * it is the module guard's one rule (`MODULE_AUDIENCE.appointments`, the bookers; issue 36): nothing is checked here.
 */
import type { TAppointment } from '@greensen/shared/contracts/appointments';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '@greensen/shared/domain/appointments';
import { Button, Group, MultiSelect, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarMonth, IconCalendarPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import {
  AppointmentStatusBadge,
  AppointmentTypeBadge,
} from '../../../lib/clinical/components/AppointmentBadges';
import { followUpRequestOf } from '../../../lib/clinical/components/FollowUpBooking';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { DateFilter } from '../../../lib/date-filter';
import { useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useAppointments } from '../api/list-appointments';
import { useScheduleProviders } from '../api/list-providers';
import { BookAppointmentModal, type BookingPrefill } from '../components/BookAppointmentModal';
import { capitalizeFirst, formatClock, formatDay, localDate } from '../components/slot-format';

const PAGE_SIZE = 20;

export default function AppointmentsPage() {
  const { t } = useTranslation('appointments');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const departments = useDepartments();
  const [department, setDepartment] = useState<string | null>(null);
  const providers = useScheduleProviders(department);
  const [provider, setProvider] = useState<string | null>(null);
  const [status, setStatus] = useState<AppointmentStatus[]>([]);
  const [from, setFrom] = useState(localDate(new Date()));
  const [until, setUntil] = useState('');
  const { page, setPage, resetPage } = useListPage();
  const location = useLocation();
  // A consultation's or a discharge's "book the follow-up" arrives with its request in the navigation's state.
  const [prefill] = useState<BookingPrefill | null>(() => {
    const request = followUpRequestOf(location.state);
    return request ? { ...request, type: 'follow_up' } : null;
  });
  const [booking, setBooking] = useState(prefill !== null);
  const query = useAppointments({
    provider,
    department,
    status,
    from: from || null,
    to: until || null,
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = provider || department || status.length > 0 || until;

  return (
    <Stack gap="md" data-testid="appointments-page">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <>
            <Button
              variant="default"
              component={Link}
              to={to('/calendar')}
              leftSection={<IconCalendarMonth size={18} />}
            >
              {t('openCalendar')}
            </Button>
            {can('appointment.book') && (
              <Button leftSection={<IconCalendarPlus size={18} />} onClick={() => setBooking(true)}>
                {t('new')}
              </Button>
            )}
          </>
        }
      />

      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
        <DateFilter label={t('filters.from')} value={from} onChange={resetPage(setFrom)} />
        <DateFilter label={t('filters.to')} value={until} onChange={resetPage(setUntil)} />
        <Select
          label={t('filters.department')}
          placeholder={t('filters.all')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={(value) => {
            resetPage(setDepartment)(value);
            setProvider(null);
          }}
          clearable
          searchable
        />
        <Select
          label={t('filters.provider')}
          placeholder={t('filters.all')}
          data={(providers.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }))}
          value={provider}
          onChange={resetPage(setProvider)}
          clearable
          searchable
        />
        <MultiSelect
          label={t('filters.status')}
          placeholder={status.length ? undefined : t('filters.all')}
          data={APPOINTMENT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={status}
          onChange={(value) => resetPage(setStatus)(value as AppointmentStatus[])}
          clearable
        />
      </SimpleGrid>
      <PagedQueryTable<TAppointment>
        query={query}
        pageSize={PAGE_SIZE}
        page={page}
        onPageChange={setPage}
        noRecordsText={filtered ? t('emptyFiltered') : t('empty')}
        onRowClick={({ record }) => navigate(to(`/appointments/${record.id}`))}
        columns={[
          {
            accessor: 'start',
            title: t('columns.when'),
            render: (a) => (
              <div>
                <Text size="sm" fw={600}>
                  {formatClock(a.start)}–{formatClock(a.end)}
                </Text>
                <Text size="xs" c="dimmed">
                  {capitalizeFirst(formatDay(localDate(a.start)))}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'patient',
            title: t('columns.patient'),
            render: (a) => <PatientCell patient={a.patient} />,
          },
          {
            accessor: 'provider',
            title: t('columns.provider'),
            render: (a) => (
              <div>
                <Text size="sm">{a.provider.full_name}</Text>
                <Text size="xs" c="dimmed">
                  {a.department.name}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'appointment_type',
            title: t('columns.type'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
            render: (a) => <AppointmentTypeBadge type={a.appointment_type} />,
          },
          {
            accessor: 'status',
            title: t('columns.status'),
            render: (a) => (
              <Group gap={4}>
                <AppointmentStatusBadge status={a.status} />
                {a.overbooked && (
                  <Text size="xs" c="orange" fw={600}>
                    {t('overbooked')}
                  </Text>
                )}
              </Group>
            ),
          },
        ]}
      />

      <BookAppointmentModal
        opened={booking}
        prefill={prefill}
        onClose={() => setBooking(false)}
        onBooked={(appointment) => {
          setBooking(false);
          navigate(to(`/appointments/${appointment.id}`));
        }}
      />
    </Stack>
  );
}
