import {
  DEFAULT_HOSPITAL_SETTINGS,
  type THospitalSettings,
  type THospitalSettingsUpdate,
} from '@greensen/shared/contracts/hospital-settings';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { hospitalSettings } from '../../db/schema/index.js';

/** The hospital's settings (by its primary key), with who changed them last; the defaults without a row. */
export async function findHospitalSettings(q: Queryable, hospitalId: string): Promise<THospitalSettings> {
  const res = await q.execute<{
    consultation_minutes: number;
    working_hours: THospitalSettings['working_hours'];
    notification_sound: boolean;
    upload_max_mb: number;
    shift_times: string[] | string;
    appointment_reminder_time: string;
    pharmacy_expiring_days: number;
    dictation_browser_enabled: boolean;
    updated_at: Date | string;
    updated_by_id: string | null;
    updated_by_name: string | null;
  }>(sql`select s.consultation_minutes, s.working_hours, s.notification_sound, s.upload_max_mb,
    s.shift_times, s.appointment_reminder_time, s.pharmacy_expiring_days, s.dictation_browser_enabled, s.updated_at,
      u.id as updated_by_id, trim(u.first_name || ' ' || u.last_name) as updated_by_name
    from hospital_settings s left join users u on u.id = s.updated_by
    where s.hospital_id = ${hospitalId}`);
  const row = res.rows[0];
  if (!row)
    return {
      ...structuredClone(DEFAULT_HOSPITAL_SETTINGS),
      shift_times: [...DEFAULT_HOSPITAL_SETTINGS.shift_times],
      updated_at: null,
      updated_by: null,
    };
  return {
    consultation_minutes: Number(row.consultation_minutes),
    working_hours: row.working_hours,
    notification_sound: row.notification_sound,
    upload_max_mb: Number(row.upload_max_mb),
    shift_times: typeof row.shift_times === 'string' ? JSON.parse(row.shift_times) : row.shift_times,
    appointment_reminder_time: row.appointment_reminder_time,
    pharmacy_expiring_days: Number(row.pharmacy_expiring_days),
    dictation_browser_enabled: row.dictation_browser_enabled,
    updated_at: new Date(row.updated_at).toISOString(),
    updated_by: row.updated_by_id ? { id: row.updated_by_id, full_name: row.updated_by_name ?? '' } : null,
  };
}

/**
 * Applies a change in one statement: a hospital without a row gets the defaults with the change; an existing row
 * changes only the fields given, so two administrators saving different fields at once both land.
 */
export async function saveHospitalSettings(
  q: Queryable,
  hospitalId: string,
  change: THospitalSettingsUpdate,
  userId: string,
) {
  const set: Partial<typeof hospitalSettings.$inferInsert> = { updatedBy: userId, updatedAt: new Date() };
  if (change.consultation_minutes !== undefined) set.consultationMinutes = change.consultation_minutes;
  if (change.working_hours !== undefined) set.workingHours = change.working_hours;
  if (change.notification_sound !== undefined) set.notificationSound = change.notification_sound;
  if (change.upload_max_mb !== undefined) set.uploadMaxMb = change.upload_max_mb;
  if (change.shift_times !== undefined) set.shiftTimes = change.shift_times;
  if (change.appointment_reminder_time !== undefined)
    set.appointmentReminderTime = change.appointment_reminder_time;
  if (change.pharmacy_expiring_days !== undefined) set.pharmacyExpiringDays = change.pharmacy_expiring_days;
  if (change.dictation_browser_enabled !== undefined)
    set.dictationBrowserEnabled = change.dictation_browser_enabled;
  const d = DEFAULT_HOSPITAL_SETTINGS;
  await q
    .insert(hospitalSettings)
    .values({
      hospitalId,
      consultationMinutes: d.consultation_minutes,
      workingHours: d.working_hours,
      notificationSound: d.notification_sound,
      shiftTimes: [...d.shift_times],
      appointmentReminderTime: d.appointment_reminder_time,
      pharmacyExpiringDays: d.pharmacy_expiring_days,
      dictationBrowserEnabled: d.dictation_browser_enabled,
      ...set,
    })
    .onConflictDoUpdate({ target: hospitalSettings.hospitalId, set });
}

/**
 * The hospital's time zone and its settings' shift times (null without a settings row), in one statement: the
 * care module's clock.
 */
export async function zoneAndShiftTimes(
  q: Queryable,
  hospitalId: string,
): Promise<{ time_zone: string; shift_times: string[] | string | null } | undefined> {
  const res = await q.execute<{ time_zone: string; shift_times: string[] | string | null }>(
    sql`select h.time_zone, s.shift_times from hospitals h
      left join hospital_settings s on s.hospital_id = h.id where h.id = ${hospitalId}`,
  );
  return res.rows[0];
}
