/**
 * The question a schedule change asks when it leaves future bookings out (409 `bookings_affected`, decision
 * 0028): the bookings, then "keep them" or "cancel them" with a reason; the form sends its request again with
 * `on_bookings`. The patients are told by the desk; the provider gets the `schedule`/`appointment` notifications.
 */
import type { TBookingsConflict } from '@greensen/shared/contracts/appointments';
import type { OnBookings } from '@greensen/shared/domain/appointments';
import { Alert, List, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatClock, formatDay, localDate } from './slot-format';

export interface BookingsChoice {
  on_bookings: OnBookings | '';
  cancel_reason: string;
}

export const NO_CHOICE: BookingsChoice = { on_bookings: '', cancel_reason: '' };

/** The request's part of a choice (nothing until one is made). */
export function decisionOf(choice: BookingsChoice): { on_bookings?: OnBookings; cancel_reason?: string } {
  if (!choice.on_bookings) return {};
  if (choice.on_bookings === 'keep') return { on_bookings: 'keep' };
  // No reason: left out, so that the schema says "give the reason" rather than "too short".
  const reason = choice.cancel_reason.trim();
  return reason ? { on_bookings: 'cancel', cancel_reason: reason } : { on_bookings: 'cancel' };
}

export function BookingsAffected({
  affected,
  choice,
  onChange,
  reasonError,
}: {
  affected: TBookingsConflict['affected'];
  choice: BookingsChoice;
  onChange: (choice: BookingsChoice) => void;
  reasonError?: string | null | undefined;
}) {
  const { t } = useTranslation('appointments');
  const shown = affected.slice(0, 8);
  return (
    <Alert color="orange" title={t('schedules.affected.title', { count: affected.length })} role="alert">
      <Stack gap="xs" data-testid="bookings-affected">
        <List size="sm" spacing={2}>
          {shown.map((b) => (
            <List.Item key={b.id}>
              {formatDay(localDate(b.start))}, {formatClock(b.start)} · {b.record_number} · {b.patient_name} ·{' '}
              {b.provider.full_name}
            </List.Item>
          ))}
        </List>
        {affected.length > shown.length && (
          <Text size="xs" c="dimmed">
            {t('schedules.affected.more', { count: affected.length - shown.length })}
          </Text>
        )}
        <Radio.Group
          label={t('schedules.affected.question')}
          value={choice.on_bookings}
          onChange={(value) => onChange({ ...choice, on_bookings: value as OnBookings })}
        >
          <Stack gap={6} mt={6}>
            <Radio value="keep" label={t('schedules.affected.keep')} />
            <Radio value="cancel" label={t('schedules.affected.cancel')} />
          </Stack>
        </Radio.Group>
        {choice.on_bookings === 'cancel' && (
          <Textarea
            label={t('schedules.affected.reason')}
            required
            withAsterisk
            autosize
            minRows={2}
            value={choice.cancel_reason}
            error={reasonError}
            onChange={(event) => onChange({ ...choice, cancel_reason: event.currentTarget.value })}
          />
        )}
      </Stack>
    </Alert>
  );
}
