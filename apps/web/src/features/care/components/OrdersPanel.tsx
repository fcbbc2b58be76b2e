/**
 * The care plan's orders (issue 20): what the doctors and nurses ordered — vital-sign monitoring (which signs),
 * dressings, IV lines, positioning, feeding, specimens, custom tasks — each with its schedule (once, every N
 * hours, at fixed times; for N days or until stopped). Writing one generates its executions; stopping one (with a
 * reason) cancels its future executions.
 */
import {
  CARE_ORDER_KINDS,
  CARE_PRIORITIES,
  type CareOrderKind,
  MONITORED_SIGNS,
  type TCareOrder,
  type TCareOrderCreate,
  ZCareOrderStop,
} from '@greensen/shared/contracts/care';
import {
  ActionIcon,
  Badge,
  Button,
  Chip,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlayerStop, IconPlus, IconX } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { fromLocalInput, toLocalInput } from '../../../lib/clinical/components/care/care-time';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { ClinicalNumberInput } from '../../../lib/clinical-number-input';
import { DateTimeField, TimeField } from '../../../lib/date-field';
import { serverErrorsFromBody } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { LoadError } from '../../../lib/page-states';
import { useCreateOrder, useOrders, useStopOrder } from '../api/care-file';

type ScheduleKind = 'once' | 'every_hours' | 'fixed_times';

export function scheduleText(order: Pick<TCareOrder, 'schedule'>, t: TFunction<'care'>) {
  const s = order.schedule;
  if (s.kind === 'once') return t('orders.schedule.onceText');
  if (s.kind === 'every_hours') return t('orders.schedule.everyText', { count: s.hours });
  return t('orders.schedule.fixedText', { times: s.times.join(', ') });
}

function NewOrderModal({ plan, onClose }: { plan: string; onClose: () => void }) {
  const { t } = useTranslation('care');
  const create = useCreateOrder(plan);
  const [kind, setKind] = useState<CareOrderKind>('vitals');
  const [title, setTitle] = useState(() => t('orders.defaultTitle.vitals'));
  const [instructions, setInstructions] = useState('');
  const [signs, setSigns] = useState<string[]>(['temperature', 'heart_rate', 'blood_pressure', 'spo2']);
  const [priority, setPriority] = useState<string>('normal');
  const [scheduleKind, setScheduleKind] = useState<ScheduleKind>('every_hours');
  const [hours, setHours] = useState<number | null>(4);
  const [times, setTimes] = useState<string[]>(['08:00', '20:00']);
  const [newTime, setNewTime] = useState('');
  const [startAt, setStartAt] = useState(() => toLocalInput(new Date()));
  const [days, setDays] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);

  const chooseKind = (value: CareOrderKind) => {
    // The default title follows the kind until the user writes one of their own.
    if (title === t(`orders.defaultTitle.${kind}`) || !title.trim())
      setTitle(t(`orders.defaultTitle.${value}`));
    setKind(value);
  };

  const submit = () => {
    if (create.isPending) return;
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = t('orders.errors.title');
    if (kind === 'vitals' && signs.length === 0) found.signs = t('orders.errors.signs');
    if (
      scheduleKind === 'every_hours' &&
      (hours === null || !Number.isInteger(hours) || hours < 1 || hours > 48)
    )
      found.schedule = t('orders.errors.hours');
    if (scheduleKind === 'fixed_times' && times.length === 0) found.schedule = t('orders.errors.times');
    // A refused number of days (NaN) is not "until stopped".
    if (scheduleKind !== 'once' && days !== null && !(Number.isInteger(days) && days >= 1 && days <= 90))
      found.days = t('orders.errors.days');
    const start = fromLocalInput(startAt);
    if (!start) found.start_at = t('time.errors.invalid');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: TCareOrderCreate = {
      kind,
      title: title.trim(),
      instructions: instructions.trim() || null,
      signs: kind === 'vitals' ? (signs as TCareOrderCreate['signs']) : [],
      priority: priority as TCareOrderCreate['priority'],
      schedule:
        scheduleKind === 'once'
          ? { kind: 'once' }
          : scheduleKind === 'every_hours'
            ? { kind: 'every_hours', hours: Number(hours) }
            : { kind: 'fixed_times', times: [...times].sort() },
      start_at: start,
      days: scheduleKind !== 'once' ? days : null,
    };
    setGeneral(null);
    create.mutate(body, {
      onSuccess: onClose,
      onError: (error) => {
        if (isApiError(error) && error.status === 400) {
          const server = serverErrorsFromBody(error.body);
          const fields: Record<string, string> = {};
          for (const [key, message] of Object.entries(server.fields))
            fields[key.startsWith('schedule') ? 'schedule' : key] = message;
          setErrors(fields);
          setGeneral(server.general);
        } else if (!isApiError(error) || (error.status !== 403 && error.status !== 404))
          setGeneral(isApiError(error) && error.status !== 0 ? error.message : t('mar.errors.network'));
      },
    });
  };

  const addTime = () => {
    if (/^([01]\d|2[0-3]):[0-5]\d$/.test(newTime) && !times.includes(newTime)) {
      setTimes([...times, newTime].sort());
      setNewTime('');
    }
  };

  return (
    <ModalForm opened onClose={onClose} onSubmit={submit} size="xl" title={t('orders.newTitle')}>
      <Stack gap="md" data-testid="order-form">
        <Select
          size="md"
          label={t('orders.kind')}
          data={CARE_ORDER_KINDS.map((k) => ({ value: k, label: t(`orders.kinds.${k}`) }))}
          value={kind}
          onChange={(value) => value && chooseKind(value as CareOrderKind)}
          allowDeselect={false}
        />
        <TextInput
          size="md"
          label={t('orders.title')}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={errors.title}
          required
        />
        {kind === 'vitals' && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('orders.signs')}
            </Text>
            <Chip.Group multiple value={signs} onChange={setSigns}>
              <Group gap="xs">
                {MONITORED_SIGNS.map((sign) => (
                  <Chip key={sign} value={sign} size="md">
                    {t(`orders.signList.${sign}`)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {errors.signs && (
              <Text size="sm" c="red">
                {errors.signs}
              </Text>
            )}
          </Stack>
        )}
        <Textarea
          size="md"
          label={t('orders.instructions')}
          autosize
          minRows={2}
          value={instructions}
          onChange={(event) => setInstructions(event.currentTarget.value)}
          error={errors.instructions}
        />
        <Group grow align="flex-start">
          <Select
            size="md"
            label={t('orders.priority')}
            data={CARE_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
            value={priority}
            onChange={(value) => setPriority(value ?? 'normal')}
            allowDeselect={false}
          />
          <DateTimeField
            size="md"
            label={t('orders.startAt')}
            value={startAt}
            onChange={setStartAt}
            error={errors.start_at}
          />
        </Group>
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {t('orders.scheduleLabel')}
          </Text>
          <SegmentedControl
            size="md"
            value={scheduleKind}
            onChange={(value) => setScheduleKind(value as ScheduleKind)}
            data={[
              { value: 'once', label: t('orders.schedule.once') },
              { value: 'every_hours', label: t('orders.schedule.every') },
              { value: 'fixed_times', label: t('orders.schedule.fixed') },
            ]}
          />
          {scheduleKind === 'every_hours' && (
            <ClinicalNumberInput
              size="md"
              w={200}
              label={t('orders.hours')}
              min={1}
              max={48}
              decimals={0}
              value={hours}
              onChange={setHours}
            />
          )}
          {scheduleKind === 'fixed_times' && (
            <Group gap="xs" align="flex-end">
              {times.map((time) => (
                <Badge
                  key={time}
                  size="xl"
                  variant="light"
                  rightSection={
                    <ActionIcon
                      size="sm"
                      variant="transparent"
                      aria-label={t('orders.removeTime', { time })}
                      onClick={() => setTimes(times.filter((x) => x !== time))}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  }
                >
                  {time}
                </Badge>
              ))}
              <TimeField
                size="md"
                w={140}
                label={t('orders.addTime')}
                value={newTime}
                onChange={setNewTime}
              />
              <Button variant="light" size="md" onClick={addTime} leftSection={<IconPlus size={16} />}>
                {t('orders.add')}
              </Button>
            </Group>
          )}
          {scheduleKind !== 'once' && (
            <ClinicalNumberInput
              size="md"
              w={200}
              label={t('orders.days')}
              description={t('orders.daysHint')}
              min={1}
              max={90}
              decimals={0}
              value={days}
              onChange={setDays}
              error={errors.days}
            />
          )}
          {errors.schedule && (
            <Text size="sm" c="red">
              {errors.schedule}
            </Text>
          )}
        </Stack>
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('orders.create')}
          loading={create.isPending}
          leftSection={<IconPlus size={18} />}
        />
      </Stack>
    </ModalForm>
  );
}

export function OrdersPanel({ plan, canOrder }: { plan: string; canOrder: boolean }) {
  const { t } = useTranslation('care');
  const [status, setStatus] = useState<'active' | 'all'>('active');
  const query = useOrders(plan, status);
  const stop = useStopOrder();
  const [creating, setCreating] = useState(false);
  const [stopping, setStopping] = useState<TCareOrder | null>(null);

  return (
    <Stack gap="sm" data-testid="orders">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <SegmentedControl
          size="md"
          value={status}
          onChange={(value) => setStatus(value as 'active' | 'all')}
          data={[
            { value: 'active', label: t('orders.active') },
            { value: 'all', label: t('orders.all') },
          ]}
        />
        {canOrder && (
          <Button size="md" leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            {t('orders.new')}
          </Button>
        )}
      </Group>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <Skeleton h={120} />
      ) : query.data.results.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {status === 'active' ? t('orders.emptyActive') : t('orders.empty')}
        </Text>
      ) : (
        query.data.results.map((order) => (
          <Paper key={order.id} withBorder radius="md" p="sm" data-testid="order">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Badge variant="light">{t(`orders.kinds.${order.kind}`)}</Badge>
                  <Text fw={700}>{order.title}</Text>
                  {order.priority !== 'normal' && (
                    <Badge color={order.priority === 'urgent' ? 'red' : 'orange'}>
                      {t(`priority.${order.priority}`)}
                    </Badge>
                  )}
                  {order.status !== 'active' && (
                    <Badge color="gray">{t(`orders.status.${order.status}`)}</Badge>
                  )}
                </Group>
                <Text size="sm">
                  {scheduleText(order, t)}
                  {order.signs.length > 0 &&
                    ` · ${order.signs.map((s) => t(`orders.signList.${s}`)).join(', ')}`}
                </Text>
                {order.instructions && (
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                    {order.instructions}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {t('orders.orderedBy', {
                    name: order.ordered_by.full_name,
                    time: formatDateTime(order.ordered_at),
                  })}
                  {order.end_at ? ` · ${t('orders.until', { time: formatDateTime(order.end_at) })}` : ''}
                  {order.stopped_by
                    ? ` · ${t('orders.stoppedBy', {
                        name: order.stopped_by.full_name,
                        time: formatDateTime(order.stopped_at),
                        reason: order.stop_reason ?? '',
                      })}`
                    : ''}
                </Text>
              </Stack>
              {canOrder && order.status === 'active' && (
                <Button
                  variant="light"
                  color="red"
                  size="md"
                  leftSection={<IconPlayerStop size={16} />}
                  onClick={() => setStopping(order)}
                >
                  {t('orders.stop')}
                </Button>
              )}
            </Group>
          </Paper>
        ))
      )}
      {creating && <NewOrderModal plan={plan} onClose={() => setCreating(false)} />}
      <ReasonModal
        opened={stopping !== null}
        onClose={() => setStopping(null)}
        title={t('orders.stopTitle', { title: stopping?.title ?? '' })}
        description={<Text size="sm">{t('orders.stopDescription')}</Text>}
        reasonLabel={t('orders.stopReason')}
        confirmLabel={t('orders.stop')}
        closeLabel={t('actions.cancel')}
        color="red"
        schema={ZCareOrderStop}
        onConfirm={(reason) => stop.mutateAsync({ id: stopping?.id ?? '', reason })}
        doneTitle={t('orders.stopped')}
      />
    </Stack>
  );
}
