/**
 * The slots of a search, grouped by day: one button per slot (its time, the provider when several providers
 * answer, the places left), the chosen one pressed. Loading, empty and error states; "more after" when the search
 * was cut.
 */
import type { TSlot, TSlotList } from '@greensen/shared/contracts/appointments';
import { Alert, Button, Group, Input, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../lib/page-states';
import { capitalizeFirst, formatClock, formatDay, slotKey, slotsByDay } from './slot-format';

export function SlotPicker({
  query,
  value,
  onChange,
  showProvider,
  error,
  label,
}: {
  query: {
    data: TSlotList | undefined;
    isPending: boolean;
    isFetching: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  /** The chosen slot's key (`slotKey`), '' when none. */
  value: string;
  onChange: (slot: TSlot) => void;
  /** Several providers answer (a department's search): each slot names its provider. */
  showProvider: boolean;
  error?: ReactNode;
  label: string;
}) {
  const { t } = useTranslation('appointments');
  const days = slotsByDay(query.data?.results ?? []);
  let body: ReactNode;
  if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.isPending)
    body = (
      <Group gap="xs" p="sm">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {t('slots.loading')}
        </Text>
      </Group>
    );
  else if (days.length === 0)
    body = (
      <Alert color="gray" data-testid="slots-empty">
        {t('slots.empty')}
      </Alert>
    );
  else
    body = (
      <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
        <Stack gap="sm" data-testid="slots">
          {days.map((day) => (
            <div key={day.date}>
              <Text size="sm" fw={600} mb={4}>
                {capitalizeFirst(formatDay(day.date))}
              </Text>
              <Group gap={6}>
                {day.slots.map((slot) => {
                  const key = slotKey(slot);
                  const chosen = key === value;
                  const full = slot.free <= 0;
                  return (
                    <Button
                      key={key}
                      size="compact-sm"
                      variant={chosen ? 'filled' : 'light'}
                      color={full ? 'orange' : undefined}
                      aria-pressed={chosen}
                      data-testid="slot"
                      data-start={slot.start}
                      onClick={() => onChange(slot)}
                      title={t('slots.places', { count: slot.free, capacity: slot.capacity })}
                    >
                      {formatClock(slot.start)}
                      {showProvider && ` · ${slot.provider.full_name}`}
                      {full
                        ? ` · ${t('slots.full')}`
                        : slot.capacity > 1
                          ? ` · ${slot.free}/${slot.capacity}`
                          : ''}
                    </Button>
                  );
                })}
              </Group>
            </div>
          ))}
          {query.data?.truncated && (
            <Text size="xs" c="dimmed">
              {t('slots.truncated')}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    );
  return (
    <Input.Wrapper label={label} required withAsterisk error={error}>
      <div style={{ opacity: query.isFetching && !query.isPending ? 0.6 : 1 }}>{body}</div>
    </Input.Wrapper>
  );
}

/** The server's 409 when the chosen slot's last place was just taken: said plainly, the slots asked again. */
export function SlotTakenAlert({ detail }: { detail: string }) {
  const { t } = useTranslation('appointments');
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={t('book.takenTitle')}
      role="alert"
      data-testid="slot-taken"
    >
      {detail} {t('book.takenRefreshed')}
    </Alert>
  );
}
