/**
 * Hospital-wide settings an administrator switches in the app (issue 15, decision 0021): the default length of a
 * consultation, the opening hours of each weekday, and whether notifications ring by default for the hospital's
 * staff (a person's own choice on /settings wins over it), the largest file added to a patient's record (issue 19),
 * the nursing shifts (issue 20), the appointment reminders' hour (issue 22) and the pharmacy's expiry alert window
 * (issue 18).
 */
import { z } from 'zod';
import { zDateTime } from './common.js';
import { ZPersonName } from './structure.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const CONSULTATION_MINUTES_MIN = 5;
export const CONSULTATION_MINUTES_MAX = 120;

export const EXPIRING_DAYS_MIN = 7;
export const EXPIRING_DAYS_MAX = 365;

export const UPLOAD_MAX_MB_MIN = 1;
export const UPLOAD_MAX_MB_MAX = 50;

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A time of day, `HH:MM` on 24 hours. */
export const ZTimeOfDay = z.string().regex(TIME_RE, 'settings.time_invalid');

/** The hours of one day: opening and closing time (closing after opening), or null when closed. */
export const ZDayHours = z
  .object({ open: ZTimeOfDay, close: ZTimeOfDay })
  .strict()
  // Only two valid times are compared (a malformed one has its own error).
  .refine((d) => !(TIME_RE.test(d.open) && TIME_RE.test(d.close)) || d.open < d.close, {
    message: 'settings.hours_order',
    path: ['close'],
  })
  .nullable();
export type TDayHours = z.infer<typeof ZDayHours>;

export const ZWorkingHours = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((d) => [d, ZDayHours])) as Record<Weekday, typeof ZDayHours>,
);
export type TWorkingHours = z.infer<typeof ZWorkingHours>;

const settingsFields = {
  consultation_minutes: z
    .number()
    .int('settings.minutes_range')
    .min(CONSULTATION_MINUTES_MIN, 'settings.minutes_range')
    .max(CONSULTATION_MINUTES_MAX, 'settings.minutes_range'),
  working_hours: ZWorkingHours,
  notification_sound: z.boolean(),
  /** The largest file staff may add to a patient's record, in MB (issue 19). */
  upload_max_mb: z
    .number()
    .int('settings.upload_range')
    .min(UPLOAD_MAX_MB_MIN, 'settings.upload_range')
    .max(UPLOAD_MAX_MB_MAX, 'settings.upload_range'),
  /**
   * When the nursing shifts change (issue 20): 2 to 4 times of day, in order, in the hospital's time zone; each
   * shift runs from one time to the next (the last one to the first of the next day).
   */
  shift_times: z
    .array(ZTimeOfDay)
    .min(2, 'settings.shift_times_count')
    .max(4, 'settings.shift_times_count')
    .refine(
      (t) => t.every((v, i) => i === 0 || !TIME_RE.test(v) || !TIME_RE.test(t[i - 1] ?? '') || t[i - 1]! < v),
      {
        message: 'settings.shift_times_order',
      },
    ),
  /**
   * When tomorrow's appointment reminders leave (issue 22), `HH:MM` in the hospital's time zone: once a day, by
   * email and SMS, in the patient's language.
   */
  appointment_reminder_time: ZTimeOfDay,
  /** The pharmacy's alert window: lots expiring within this many days are flagged (issue 18). */
  pharmacy_expiring_days: z
    .number()
    .int('settings.expiring_range')
    .min(EXPIRING_DAYS_MIN, 'settings.expiring_range')
    .max(EXPIRING_DAYS_MAX, 'settings.expiring_range'),
  /**
   * Whether staff may dictate with the browser's own speech recognition (issue 23, decision 0034). Chrome and
   * Edge send that audio to their vendor's servers: an administrator switches it off to keep audio in the
   * hospital (dictation then goes through the server's transcription service, or is kept as a recording).
   */
  dictation_browser_enabled: z.boolean(),
};

/** A change: any of the settings; a field it does not know is refused (400), not silently dropped. */
export const ZHospitalSettingsUpdate = z.strictObject(settingsFields).partial();
export type THospitalSettingsUpdate = z.input<typeof ZHospitalSettingsUpdate>;

export const ZHospitalSettings = z.object({
  ...settingsFields,
  /** When and by whom they were last changed; null while the hospital keeps the defaults. */
  updated_at: zDateTime.nullable(),
  updated_by: ZPersonName.nullable(),
});
export type THospitalSettings = z.infer<typeof ZHospitalSettings>;

const weekday = { open: '08:00', close: '17:00' };
/** What a hospital starts with. */
export const DEFAULT_HOSPITAL_SETTINGS = {
  consultation_minutes: 20,
  working_hours: {
    mon: weekday,
    tue: weekday,
    wed: weekday,
    thu: weekday,
    fri: weekday,
    sat: { open: '08:00', close: '12:00' },
    sun: null,
  },
  notification_sound: true,
  upload_max_mb: 10,
  shift_times: ['07:00', '19:00'],
  appointment_reminder_time: '18:00',
  pharmacy_expiring_days: 90,
  dictation_browser_enabled: true,
} as const satisfies z.infer<z.ZodObject<typeof settingsFields>>;
