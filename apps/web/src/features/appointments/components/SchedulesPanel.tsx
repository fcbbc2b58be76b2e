/**
 * The "Schedules" tab of /calendar (issue 22, decision 0037): the providers' weekly schedules, their absences and
 * the hospital's public holidays — what the free-slot search and booking expand. Everyone reads them; head doctors
 * and administrators create, change and end schedules and add extra sessions; a provider records their own
 * absences; administrators keep the holidays. The actions follow the same rules as the server.
 */
import type { THoliday, TSchedule, TScheduleException } from '@greensen/shared/contracts/appointments';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCalendarPlus, IconPencil, IconPlayerStop, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDate } from '../../../lib/format';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useUserStore } from '../../../stores/user';
import { useScheduleProviders } from '../api/list-providers';
import {
  SCHEDULES_PAGE_SIZE,
  useExceptions,
  useHolidays,
  useRemoveException,
  useRemoveHoliday,
  useSchedules,
} from '../api/schedules';
import { EndScheduleModal, ExceptionModal, HolidayModal } from './AbsenceModals';
import { ScheduleFormModal, type ScheduleFormMode } from './ScheduleFormModal';
import { localDate } from './slot-format';

/** Role groups who have schedules of their own (and record their own absences). */
const PROVIDER_GROUPS = ['doctor', 'head_doctor', 'midwife', 'nurse'];

export function SchedulesPanel() {
  return (
    <Stack gap="lg" data-testid="schedules-panel">
      <WeeklySchedules />
      <Absences />
      <Holidays />
    </Stack>
  );
}

function SectionHeader({ title, hint, actions }: { title: string; hint: string; actions?: React.ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Title order={3}>{title}</Title>
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      </Stack>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}

/**
 * A row's red bin: asks to confirm, then removes and says so (a failure is the API client's toast). The strings are
 * `schedules.<texts>.{removeOf,removeTitle,removeConfirm,removed}` with `values`.
 */
function RemoveAction({
  texts,
  values,
  onRemove,
}: {
  texts: 'absence' | 'holiday';
  values: Record<string, string>;
  onRemove: () => Promise<unknown>;
}) {
  const { t } = useTranslation('appointments');
  const removedLabel = t(`schedules.${texts}.removed`);
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      aria-label={t(`schedules.${texts}.removeOf`, values)}
      onClick={() =>
        modals.openConfirmModal({
          title: t(`schedules.${texts}.removeTitle`),
          children: <Text size="sm">{t(`schedules.${texts}.removeConfirm`, values)}</Text>,
          labels: { confirm: t('schedules.remove'), cancel: t('common:actions.cancel') },
          confirmProps: { color: 'red' },
          onConfirm: () => {
            onRemove().then(
              () => toast({ kind: 'success', title: removedLabel }),
              () => undefined,
            );
          },
        })
      }
    >
      <IconTrash size={16} />
    </ActionIcon>
  );
}

/** The provider column of the schedules and absences. */
const providerColumn = (t: TFunction) => ({
  accessor: 'provider',
  title: t('schedules.columns.provider'),
  render: (row: { provider: { full_name: string } }) => row.provider.full_name,
});

/** The lists' provider filter: the providers who have a schedule. */
function ProviderFilter({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation('appointments');
  const providers = useScheduleProviders();
  return (
    <Select
      aria-label={t('schedules.form.provider')}
      placeholder={t('schedules.filters.provider')}
      data={(providers.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }))}
      value={value}
      onChange={onChange}
      searchable
      clearable
      w={240}
    />
  );
}

function WeeklySchedules() {
  const { t } = useTranslation('appointments');
  const { can } = usePermissions();
  const manage = can('schedule.manage');
  const [page, setPage] = useState(1);
  const [provider, setProvider] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [activeOnly, setActiveOnly] = useState(true);
  const [mode, setMode] = useState<ScheduleFormMode | null>(null);
  const [editing, setEditing] = useState<TSchedule | null>(null);
  const [ending, setEnding] = useState<TSchedule | null>(null);
  const departments = useDepartments();
  const query = useSchedules({ provider, department, active: activeOnly ? true : undefined, page });

  const sessionsText = (s: TSchedule) =>
    s.sessions.map((x) => `${t(`schedules.weekdayShort.${x.weekday}`)} ${x.start}–${x.end}`).join(', ');

  return (
    <Stack gap="sm">
      <SectionHeader
        title={t('schedules.weekly.title')}
        hint={t('schedules.weekly.hint')}
        actions={
          manage && (
            <>
              <Button
                variant="default"
                leftSection={<IconCalendarPlus size={16} />}
                onClick={() => setMode('extra')}
              >
                {t('schedules.extra.add')}
              </Button>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setMode('create')}>
                {t('schedules.weekly.add')}
              </Button>
            </>
          )
        }
      />
      <Group gap="sm" wrap="wrap">
        <ProviderFilter
          value={provider}
          onChange={(value) => {
            setProvider(value);
            setPage(1);
          }}
        />
        <Select
          aria-label={t('schedules.form.department')}
          placeholder={t('schedules.filters.department')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={(value) => {
            setDepartment(value);
            setPage(1);
          }}
          searchable
          clearable
          w={240}
        />
        <Switch
          label={t('schedules.filters.activeOnly')}
          checked={activeOnly}
          onChange={(event) => {
            setActiveOnly(event.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      <PagedQueryTable<TSchedule>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={SCHEDULES_PAGE_SIZE}
        noRecordsText={t('schedules.weekly.empty')}
        columns={[
          providerColumn(t),
          {
            accessor: 'department',
            title: t('schedules.columns.department'),
            render: (s) => s.department.name,
          },
          { accessor: 'sessions', title: t('schedules.columns.sessions'), render: sessionsText },
          {
            accessor: 'slot_minutes',
            title: t('schedules.columns.slots'),
            render: (s) => t('schedules.slotsText', { minutes: s.slot_minutes, count: s.capacity }),
          },
          {
            accessor: 'types',
            title: t('schedules.columns.types'),
            render: (s) => s.types.map((type) => t(`type.${type}`)).join(', '),
          },
          {
            accessor: 'valid_from',
            title: t('schedules.columns.validity'),
            render: (s) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm">
                  {s.valid_until
                    ? s.valid_from === s.valid_until
                      ? formatDate(s.valid_from)
                      : t('schedules.validity.range', {
                          from: formatDate(s.valid_from),
                          to: formatDate(s.valid_until),
                        })
                    : t('schedules.validity.from', { from: formatDate(s.valid_from) })}
                </Text>
                {!s.active && (
                  <Badge color="gray" size="sm" variant="light">
                    {t('schedules.ended')}
                  </Badge>
                )}
              </Group>
            ),
          },
          ...(manage
            ? [
                {
                  accessor: 'actions',
                  title: '',
                  textAlign: 'right' as const,
                  render: (s: TSchedule) =>
                    s.active && (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label={t('schedules.edit')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('schedules.editOf', { name: s.provider.full_name })}
                            onClick={() => {
                              setEditing(s);
                              setMode('edit');
                            }}
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('schedules.end.action')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('schedules.end.actionOf', { name: s.provider.full_name })}
                            onClick={() => setEnding(s)}
                          >
                            <IconPlayerStop size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    ),
                },
              ]
            : []),
        ]}
      />
      <ScheduleFormModal
        mode={mode}
        schedule={editing}
        onClose={() => {
          setMode(null);
          setEditing(null);
        }}
      />
      <EndScheduleModal schedule={ending} onClose={() => setEnding(null)} />
    </Stack>
  );
}

function Absences() {
  const { t } = useTranslation('appointments');
  const { can, groups, userId } = usePermissions();
  const manage = can('schedule.manage');
  const isProvider = groups.some((g) => PROVIDER_GROUPS.includes(g));
  const me = useUserStore((state) => state.user);
  const [page, setPage] = useState(1);
  const [provider, setProvider] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const providers = useScheduleProviders();
  const today = localDate(new Date());
  const query = useExceptions({ provider, from: today, page });
  const remove = useRemoveException();

  const options = manage
    ? (providers.data?.results ?? []).map((p) => ({ value: p.id, label: p.full_name }))
    : userId
      ? [{ value: userId, label: me?.full_name ?? '' }]
      : [];
  if (manage && isProvider && userId && !options.some((o) => o.value === userId))
    options.unshift({ value: userId, label: me?.full_name ?? '' });

  return (
    <Stack gap="sm">
      <SectionHeader
        title={t('schedules.absences.title')}
        hint={t('schedules.absences.hint')}
        actions={
          (manage || isProvider) && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              {t('schedules.absence.add')}
            </Button>
          )
        }
      />
      <ProviderFilter
        value={provider}
        onChange={(value) => {
          setProvider(value);
          setPage(1);
        }}
      />
      <PagedQueryTable<TScheduleException>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={SCHEDULES_PAGE_SIZE}
        minHeight={160}
        noRecordsText={t('schedules.absences.empty')}
        columns={[
          providerColumn(t),
          {
            accessor: 'kind',
            title: t('schedules.absence.kind'),
            render: (e) => t(`schedules.kind.${e.kind}`),
          },
          {
            accessor: 'start_date',
            title: t('schedules.columns.dates'),
            render: (e) =>
              e.start_date === e.end_date
                ? formatDate(e.start_date)
                : t('schedules.validity.range', {
                    from: formatDate(e.start_date),
                    to: formatDate(e.end_date),
                  }),
          },
          { accessor: 'reason', title: t('schedules.absence.reason'), render: (e) => e.reason ?? '' },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (e) =>
              (manage || e.provider.id === userId) && (
                <RemoveAction
                  texts="absence"
                  values={{
                    name: e.provider.full_name,
                    from: formatDate(e.start_date),
                    to: formatDate(e.end_date),
                  }}
                  onRemove={() => remove.mutateAsync(e.id)}
                />
              ),
          },
        ]}
      />
      <ExceptionModal
        opened={adding}
        providers={options}
        defaultProvider={manage ? null : userId}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
}

function Holidays() {
  const { t } = useTranslation('appointments');
  const { can } = usePermissions();
  const manage = can('holiday.manage');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const today = localDate(new Date());
  const query = useHolidays({ from: today, page });
  const remove = useRemoveHoliday();

  return (
    <Paper p={0}>
      <Stack gap="sm">
        <SectionHeader
          title={t('schedules.holidays.title')}
          hint={t('schedules.holidays.hint')}
          actions={
            manage && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                {t('schedules.holiday.add')}
              </Button>
            )
          }
        />
        <PagedQueryTable<THoliday>
          query={query}
          page={page}
          onPageChange={setPage}
          pageSize={SCHEDULES_PAGE_SIZE}
          minHeight={160}
          noRecordsText={t('schedules.holidays.empty')}
          columns={[
            { accessor: 'date', title: t('schedules.holiday.date'), render: (h) => formatDate(h.date) },
            { accessor: 'name', title: t('schedules.holiday.name') },
            ...(manage
              ? [
                  {
                    accessor: 'actions',
                    title: '',
                    textAlign: 'right' as const,
                    render: (h: THoliday) => (
                      <RemoveAction
                        texts="holiday"
                        values={{ name: h.name, date: formatDate(h.date) }}
                        onRemove={() => remove.mutateAsync(h.id)}
                      />
                    ),
                  },
                ]
              : []),
          ]}
        />
        <HolidayModal opened={adding} onClose={() => setAdding(false)} />
      </Stack>
    </Paper>
  );
}
