/**
 * Appointments (issue 22, decision 0028): providers' weekly schedules, their exceptions, the hospital's public
 * holidays, the free-slot search, appointments and their statuses, check-in (which opens the visit), reminders and
 * the personal iCalendar feed.
 *
 * Routes (all under /api, Hospital-ID header unless public; groups from domain/permissions.ts: "bookers" =
 * secretary, queue manager, nurse, doctor, head doctor, midwife; "desk" = secretary, queue manager; another
 * hospital's id is 404):
 *
 * | Method | Path | Who |
 * |---|---|---|
 * | GET    | /appointments/schedules/               | every member (a provider filter `provider`, `department`, `active`) |
 * | POST   | /appointments/schedules/               | head doctor, admin |
 * | GET    | /appointments/schedules/{id}/          | every member |
 * | PATCH  | /appointments/schedules/{id}/          | head doctor, admin: 409 `ZBookingsConflict` when future bookings fall out, unless `on_bookings` |
 * | DELETE | /appointments/schedules/{id}/          | head doctor, admin: ends it (query `on_bookings`, `reason`; same 409) |
 * | GET    | /appointments/exceptions/              | every member (`provider`, `from`, `to`) |
 * | POST   | /appointments/exceptions/              | head doctor, admin, and a provider for themself (same 409 rule) |
 * | DELETE | /appointments/exceptions/{id}/         | head doctor, admin, the provider |
 * | GET    | /appointments/holidays/                | every member (`from`, `to`) |
 * | POST   | /appointments/holidays/                | admin (same 409 rule) |
 * | DELETE | /appointments/holidays/{id}/           | admin |
 * | GET    | /appointments/providers/               | every member: the providers who have a schedule (`department`) |
 * | GET    | /appointments/slots/                   | bookers, admin: free slots of a provider or a department over ≤ 62 days |
 * | GET    | /appointments/                         | bookers: filters provider, department, patient, from, to, status, type, mine |
 * | POST   | /appointments/                         | bookers (`overbook: true`: head doctor only) → 201, 409 when the slot is full |
 * | GET    | /appointments/today/                   | bookers: my appointments today with their check-in state (doctor dashboard `schedule` tab) |
 * | GET    | /appointments/{id}/                    | bookers: with its reschedule history |
 * | PATCH  | /appointments/{id}/                    | bookers: reason, notes, type (allowed by the slot's schedule) |
 * | POST   | /appointments/{id}/confirm/            | bookers |
 * | POST   | /appointments/{id}/reschedule/         | bookers (`overbook`: head doctor): keeps the old time in the history |
 * | POST   | /appointments/{id}/cancel/             | bookers, with a reason |
 * | POST   | /appointments/{id}/no-show/            | bookers, once the appointment has started |
 * | POST   | /appointments/{id}/complete/           | bookers, after check-in |
 * | POST   | /appointments/{id}/check-in/           | desk: opens the visit (admission) in the appointment's department |
 * | GET    | /appointments/ics-link/                | every member: whether I have a feed link |
 * | POST   | /appointments/ics-link/                | every member: creates or rotates my link (the URL is shown once) |
 * | DELETE | /appointments/ics-link/                | every member: revokes it |
 * | GET    | /appointments/ics/{token}.ics          | public (the token is the credential): my schedule, no patient names |
 *
 * The reminder time is a hospital setting (`appointment_reminder_time`, contracts/hospital-settings.ts).
 */
import { z } from 'zod';
import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_TYPES,
  ON_BOOKINGS,
  SCHEDULE_EXCEPTION_KINDS,
  SLOT_CAPACITY_MAX,
  SLOT_MINUTES_MAX,
  SLOT_MINUTES_MIN,
  SLOT_SEARCH_MAX_RESULTS,
  sessionsOverlap,
  WEEKDAY_CODES,
} from '../domain/appointments.js';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean } from './common.js';
import { ZTimeOfDay } from './hospital-settings.js';

/** Every path of the module, for the web app's API files (`{id}` and `{token}` are placeholders). */
export const APPOINTMENT_ROUTES = {
  schedules: '/appointments/schedules/',
  schedule: '/appointments/schedules/{id}/',
  exceptions: '/appointments/exceptions/',
  exception: '/appointments/exceptions/{id}/',
  holidays: '/appointments/holidays/',
  holiday: '/appointments/holidays/{id}/',
  providers: '/appointments/providers/',
  slots: '/appointments/slots/',
  appointments: '/appointments/',
  today: '/appointments/today/',
  appointment: '/appointments/{id}/',
  confirm: '/appointments/{id}/confirm/',
  reschedule: '/appointments/{id}/reschedule/',
  cancel: '/appointments/{id}/cancel/',
  noShow: '/appointments/{id}/no-show/',
  complete: '/appointments/{id}/complete/',
  checkIn: '/appointments/{id}/check-in/',
  icsLink: '/appointments/ics-link/',
  icsFeed: '/appointments/ics/{token}.ics',
} as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const note = z.string().trim().max(2000).nullish();
const zDate = z.iso.date();

// Schedules -------------------------------------------------------------------------------------------------

export const ZScheduleSession = z
  .object({ weekday: z.enum(WEEKDAY_CODES), start: ZTimeOfDay, end: ZTimeOfDay })
  .strict()
  .refine((s) => s.start < s.end, { message: 'appointments.session_order', path: ['end'] });
export type TScheduleSession = z.infer<typeof ZScheduleSession>;

const sessions = z
  .array(ZScheduleSession)
  .min(1)
  .max(21)
  .refine((s) => !sessionsOverlap(s), { message: 'appointments.sessions_overlap' });

const scheduleFields = {
  sessions,
  slot_minutes: z.number().int().min(SLOT_MINUTES_MIN).max(SLOT_MINUTES_MAX),
  capacity: z.number().int().min(1).max(SLOT_CAPACITY_MAX),
  types: z
    .array(z.enum(APPOINTMENT_TYPES))
    .min(1)
    .refine((t) => new Set(t).size === t.length, { message: 'appointments.types_unique' }),
  valid_from: zDate,
  valid_until: zDate.nullish(),
  note,
};

/** What to do with the future bookings a change leaves out of the schedule (409 when absent and some exist). */
export const ZOnBookings = z
  .object({
    on_bookings: z.enum(ON_BOOKINGS).optional(),
    /** Required with `cancel`. */
    cancel_reason: z.string().trim().min(3).max(500).optional(),
  })
  .strict();

const cancelReasonRequired = (v: { on_bookings?: string | undefined; cancel_reason?: string | undefined }) =>
  v.on_bookings !== 'cancel' || Boolean(v.cancel_reason);
const untilAfterFrom = (v: { valid_from?: string | undefined; valid_until?: string | null | undefined }) =>
  !v.valid_from || !v.valid_until || v.valid_from <= v.valid_until;

export const ZScheduleCreate = z
  .object({ provider: z.uuid(), department: z.uuid(), ...scheduleFields })
  .strict()
  .refine(untilAfterFrom, { message: 'appointments.validity_order', path: ['valid_until'] });
export type TScheduleCreate = z.input<typeof ZScheduleCreate>;

export const ZScheduleUpdate = z
  .object({ ...scheduleFields, ...ZOnBookings.shape })
  .partial()
  .strict()
  .refine(untilAfterFrom, { message: 'appointments.validity_order', path: ['valid_until'] })
  .refine(cancelReasonRequired, { message: 'appointments.cancel_reason_required', path: ['cancel_reason'] });
export type TScheduleUpdate = z.input<typeof ZScheduleUpdate>;

/** Query of DELETE /appointments/schedules/{id}/ (ends the schedule today). */
export const ZScheduleEndQuery = z
  .object({
    on_bookings: z.enum(ON_BOOKINGS).optional(),
    reason: z.string().trim().min(3).max(500).optional(),
  })
  .refine((v) => v.on_bookings !== 'cancel' || Boolean(v.reason), {
    message: 'appointments.cancel_reason_required',
    path: ['reason'],
  });

export const ZSchedule = z.object({
  id: z.uuid(),
  provider: ZPersonRef,
  department: ZDepartmentRef,
  sessions: z.array(ZScheduleSession),
  slot_minutes: z.number().int(),
  capacity: z.number().int(),
  types: z.array(z.enum(APPOINTMENT_TYPES)),
  valid_from: zDate,
  valid_until: zDate.nullable(),
  note: z.string().nullable(),
  /** False once ended (DELETE); ended schedules are kept for history. */
  active: z.boolean(),
  created_at: zDateTime,
  updated_at: zDateTime,
});
export type TSchedule = z.infer<typeof ZSchedule>;

export const ZScheduleListQuery = ZPageQuery.extend({
  provider: z.uuid().optional(),
  department: z.uuid().optional(),
  active: zQueryBoolean.optional(),
});
export const ZScheduleList = zPage(ZSchedule);

// Exceptions and holidays -----------------------------------------------------------------------------------

export const ZScheduleExceptionCreate = z
  .object({
    provider: z.uuid(),
    start_date: zDate,
    end_date: zDate,
    kind: z.enum(SCHEDULE_EXCEPTION_KINDS),
    reason: z.string().trim().max(500).nullish(),
    ...ZOnBookings.shape,
  })
  .strict()
  .refine((v) => v.start_date <= v.end_date, { message: 'appointments.dates_order', path: ['end_date'] })
  .refine(cancelReasonRequired, { message: 'appointments.cancel_reason_required', path: ['cancel_reason'] });
export type TScheduleExceptionCreate = z.input<typeof ZScheduleExceptionCreate>;

export const ZScheduleException = z.object({
  id: z.uuid(),
  provider: ZPersonRef,
  start_date: zDate,
  end_date: zDate,
  kind: z.enum(SCHEDULE_EXCEPTION_KINDS),
  reason: z.string().nullable(),
  created_at: zDateTime,
});
export type TScheduleException = z.infer<typeof ZScheduleException>;

export const ZDateRangeQuery = ZPageQuery.extend({ from: zDate.optional(), to: zDate.optional() });
export const ZScheduleExceptionListQuery = ZDateRangeQuery.extend({ provider: z.uuid().optional() });
export const ZScheduleExceptionList = zPage(ZScheduleException);

export const ZHolidayCreate = z
  .object({ date: zDate, name: text(200), ...ZOnBookings.shape })
  .strict()
  .refine(cancelReasonRequired, { message: 'appointments.cancel_reason_required', path: ['cancel_reason'] });
export type THolidayCreate = z.input<typeof ZHolidayCreate>;
export const ZHoliday = z.object({ id: z.uuid(), date: zDate, name: z.string(), created_at: zDateTime });
export type THoliday = z.infer<typeof ZHoliday>;
export const ZHolidayList = zPage(ZHoliday);

/**
 * A provider who has a schedule, for the calendar's and the booking form's pickers; with `unscheduled=true` (those
 * who manage schedules only), also every active member who may have one — doctor, head doctor, midwife, nurse —
 * with no departments when they have no schedule yet (the new-schedule dialog).
 */
export const ZScheduleProvider = z.object({
  id: z.uuid(),
  full_name: z.string(),
  departments: z.array(ZDepartmentRef),
});
export const ZScheduleProviderList = z.object({ results: z.array(ZScheduleProvider) });
export const ZScheduleProviderQuery = z.object({
  department: z.uuid().optional(),
  unscheduled: zQueryBoolean.default(false),
});

// Slots -----------------------------------------------------------------------------------------------------

/**
 * A provider's or a department's slots over `from`–`to` (dates in the hospital's time zone, at most 62 days).
 * `free_only` (default true) leaves out full slots and past ones; `first_available` answers the earliest free slot
 * per provider ordered by time ("first available" in a department). At most `limit` slots; `truncated` says more
 * matched.
 */
export const ZSlotQuery = z
  .object({
    provider: z.uuid().optional(),
    department: z.uuid().optional(),
    from: zDate,
    to: zDate,
    type: z.enum(APPOINTMENT_TYPES).optional(),
    free_only: zQueryBoolean.default(true),
    first_available: zQueryBoolean.default(false),
    limit: z.coerce.number().int().min(1).max(SLOT_SEARCH_MAX_RESULTS).default(200),
  })
  .refine((v) => Boolean(v.provider) || Boolean(v.department), {
    message: 'appointments.slot_target_required',
    path: ['department'],
  })
  .refine((v) => v.from <= v.to, { message: 'appointments.dates_order', path: ['to'] });
export type TSlotQuery = z.input<typeof ZSlotQuery>;

export const ZSlot = z.object({
  start: zDateTime,
  end: zDateTime,
  provider: ZPersonRef,
  department: z.uuid(),
  schedule: z.uuid(),
  capacity: z.number().int(),
  booked: z.number().int(),
  /** `capacity − booked`, never below 0 (an overbooked slot is 0). */
  free: z.number().int(),
  types: z.array(z.enum(APPOINTMENT_TYPES)),
});
export type TSlot = z.infer<typeof ZSlot>;
export const ZSlotList = z.object({ results: z.array(ZSlot), truncated: z.boolean(), time_zone: z.string() });
export type TSlotList = z.infer<typeof ZSlotList>;

// Appointments ----------------------------------------------------------------------------------------------

export const ZAppointmentCreate = z
  .object({
    patient: z.uuid(),
    provider: z.uuid(),
    department: z.uuid(),
    /** The start of one of the provider's slots in that department. */
    start: zDateTime,
    appointment_type: z.enum(APPOINTMENT_TYPES),
    reason: text(1000),
    notes: note,
    /** Book beyond the slot's capacity (head doctor only; recorded and audited). */
    overbook: z.boolean().optional(),
  })
  .strict();
export type TAppointmentCreate = z.input<typeof ZAppointmentCreate>;

export const ZAppointmentUpdate = z
  .object({
    appointment_type: z.enum(APPOINTMENT_TYPES).optional(),
    reason: text(1000).optional(),
    notes: note,
  })
  .strict();
export type TAppointmentUpdate = z.input<typeof ZAppointmentUpdate>;

export const ZAppointmentReschedule = z
  .object({
    start: zDateTime,
    /** Another provider (or department) of the hospital; default: the same. */
    provider: z.uuid().optional(),
    department: z.uuid().optional(),
    reason: z.string().trim().max(500).nullish(),
    overbook: z.boolean().optional(),
  })
  .strict();
export type TAppointmentReschedule = z.input<typeof ZAppointmentReschedule>;

export const ZAppointmentCancel = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
export type TAppointmentCancel = z.input<typeof ZAppointmentCancel>;

/** The visit a check-in opened, and its state (the schedule tab's check-in state). */
export const ZAppointmentAdmissionRef = z.object({
  id: z.uuid(),
  status: z.string(),
  queue_number: z.number().int(),
});

export const ZAppointment = z.object({
  id: z.uuid(),
  patient: ZPatientRef,
  provider: ZPersonRef,
  department: ZDepartmentRef,
  start: zDateTime,
  end: zDateTime,
  appointment_type: z.enum(APPOINTMENT_TYPES),
  reason: z.string(),
  notes: z.string().nullable(),
  status: z.enum(APPOINTMENT_STATUSES),
  cancel_reason: z.string().nullable(),
  overbooked: z.boolean(),
  overbooked_by: ZPersonRef.nullable(),
  booked_by: ZPersonRef.nullable(),
  created_at: zDateTime,
  confirmed_at: zDateTime.nullable(),
  checked_in_at: zDateTime.nullable(),
  completed_at: zDateTime.nullable(),
  no_show_at: zDateTime.nullable(),
  cancelled_at: zDateTime.nullable(),
  /** Set by check-in. */
  admission: ZAppointmentAdmissionRef.nullable(),
  reschedule_count: z.number().int(),
});
export type TAppointment = z.infer<typeof ZAppointment>;

/** One move of an appointment (a row per reschedule). */
export const ZAppointmentMove = z.object({
  id: z.uuid(),
  from_start: zDateTime,
  from_end: zDateTime,
  from_provider: ZPersonRef,
  to_start: zDateTime,
  to_end: zDateTime,
  to_provider: ZPersonRef,
  reason: z.string().nullable(),
  moved_by: ZPersonRef.nullable(),
  moved_at: zDateTime,
});
export type TAppointmentMove = z.infer<typeof ZAppointmentMove>;

export const ZAppointmentDetail = ZAppointment.extend({ history: z.array(ZAppointmentMove) });
export type TAppointmentDetail = z.infer<typeof ZAppointmentDetail>;

export const ZAppointmentListQuery = ZPageQuery.extend({
  provider: z.uuid().optional(),
  department: z.uuid().optional(),
  patient: z.uuid().optional(),
  /** Start dates, inclusive, hospital time zone. */
  from: zDate.optional(),
  to: zDate.optional(),
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',') : undefined))
    .pipe(z.array(z.enum(APPOINTMENT_STATUSES)).optional()),
  appointment_type: z.enum(APPOINTMENT_TYPES).optional(),
  /** Only the caller's own appointments (as the provider). */
  mine: zQueryBoolean.optional(),
  ordering: z.enum(['start', '-start']).default('start'),
});
export type TAppointmentListQuery = z.input<typeof ZAppointmentListQuery>;
export const ZAppointmentList = zPage(ZAppointment);
export type TAppointmentList = z.infer<typeof ZAppointmentList>;

/** GET /appointments/today/: the caller's appointments of today (hospital date), in time order. */
export const ZTodayAppointments = z.object({
  date: zDate,
  time_zone: z.string(),
  results: z.array(ZAppointment),
});
export type TTodayAppointments = z.infer<typeof ZTodayAppointments>;

/** POST /appointments/{id}/check-in/ answers the appointment (checked in) and the visit it opened. */
export const ZCheckInResult = z.object({
  appointment: ZAppointment,
  admission: z.object({
    id: z.uuid(),
    status: z.string(),
    queue_number: z.number().int(),
    queue_date: zDate,
    department: ZDepartmentRef,
  }),
});
export type TCheckInResult = z.infer<typeof ZCheckInResult>;

/** A 409 of a schedule change (or an exception, or a holiday) that would leave future bookings out. */
export const ZBookingsConflict = z.object({
  detail: z.string(),
  code: z.literal('bookings_affected'),
  affected: z.array(
    z.object({
      id: z.uuid(),
      start: zDateTime,
      record_number: z.string(),
      patient_name: z.string(),
      provider: ZPersonRef,
      status: z.enum(APPOINTMENT_STATUSES),
    }),
  ),
});
export type TBookingsConflict = z.infer<typeof ZBookingsConflict>;

// iCalendar feed --------------------------------------------------------------------------------------------

export const ZIcsLinkState = z.object({
  active: z.boolean(),
  created_at: zDateTime.nullable(),
  last_used_at: zDateTime.nullable(),
});
export type TIcsLinkState = z.infer<typeof ZIcsLinkState>;
/** POST answers the new link once (the server keeps only a hash). */
export const ZIcsLinkCreated = ZIcsLinkState.extend({
  /** Path under the API origin, e.g. `/api/appointments/ics/<token>.ics`. */
  url: z.string(),
});
export type TIcsLinkCreated = z.infer<typeof ZIcsLinkCreated>;
