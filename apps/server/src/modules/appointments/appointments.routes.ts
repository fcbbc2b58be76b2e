import {
  ZAppointment,
  ZAppointmentCancel,
  ZAppointmentCreate,
  ZAppointmentDetail,
  ZAppointmentList,
  ZAppointmentListQuery,
  ZAppointmentReschedule,
  ZAppointmentUpdate,
  ZCheckInResult,
  ZDateRangeQuery,
  ZHoliday,
  ZHolidayCreate,
  ZHolidayList,
  ZIcsLinkCreated,
  ZIcsLinkState,
  ZSchedule,
  ZScheduleCreate,
  ZScheduleEndQuery,
  ZScheduleException,
  ZScheduleExceptionCreate,
  ZScheduleExceptionList,
  ZScheduleExceptionListQuery,
  ZScheduleList,
  ZScheduleListQuery,
  ZScheduleProviderList,
  ZScheduleProviderQuery,
  ZScheduleUpdate,
  ZSlotList,
  ZSlotQuery,
  ZTodayAppointments,
} from '@greensen/shared/contracts/appointments';
import { ZIdParams } from '@greensen/shared/contracts/common';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { pageOf } from '../../lib/pagination.js';
import './appointments.messages.js';
import { AppointmentsService } from './appointments.service.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { REMINDER_JOB, sendDueReminders } from './reminders.js';
import { SchedulesService } from './schedules.service.js';
import { SlotsService } from './slots.service.js';
import { OutboxSmsSender, type SmsSender } from './sms.js';

const ZTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });

/**
 * Appointments (issue 22; specification §1 `/appointments`, `/appointments/{id}`, `/calendar`, §3 `appointment` and
 * `schedule` notifications). The route list with who may call is at the top of contracts/appointments.ts; the
 * roles are decision 0028.
 */
export async function appointmentsRoutes(app: FastifyInstance, opts: { sms?: SmsSender } = {}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const slots = new SlotsService(app);
  const schedules = new SchedulesService(app, slots);
  const appointments = new AppointmentsService(app, slots);
  const feed = new CalendarFeedService(app);
  const sms = opts.sms ?? new OutboxSmsSender();
  const policy = (roles: readonly DashboardGroup[] | 'any') =>
    ({ access: { scope: 'hospital', module: 'appointments', roles } }) as const;
  const everyone = policy('any');
  const read = policy(ACTION_GROUPS['appointment.read']);
  const book = policy(ACTION_GROUPS['appointment.book']);
  const desk = policy(ACTION_GROUPS['appointment.check_in']);
  const manage = policy(ACTION_GROUPS['schedule.manage']);
  const holidays = policy(ACTION_GROUPS['holiday.manage']);
  const providersAndManagers = policy([
    ...new Set<DashboardGroup>([
      ...ACTION_GROUPS['schedule.manage'],
      'doctor',
      'head_doctor',
      'midwife',
      'nurse',
    ]),
  ]);
  const slotReaders = policy([...new Set<DashboardGroup>([...ACTION_GROUPS['appointment.book'], 'admin'])]);
  const tags = ['appointments'];

  // Tomorrow's reminders, once each, from each hospital's reminder time (decision 0028).
  app.jobs.define({
    name: REMINDER_JOB,
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    rule: 'appointments.reminder',
    async run(_payload, { ctx }) {
      const sent = await sendDueReminders(app, sms, app.jobs.now());
      ctx.log.info(sent, 'appointment reminders sent');
    },
  });
  app.jobs.schedule({ name: REMINDER_JOB, cron: '*/15 * * * *' });

  // Schedules -----------------------------------------------------------------------------------------------

  r.get(
    '/api/appointments/schedules/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Providers’ weekly schedules',
        querystring: ZScheduleListQuery,
        response: { 200: ZScheduleList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await schedules.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/appointments/schedules/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Creates a provider’s weekly schedule',
        body: ZScheduleCreate,
        response: { 201: ZSchedule },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return schedules.create(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/appointments/schedules/:id/',
    {
      config: everyone,
      schema: { tags, summary: 'A schedule', params: ZIdParams, response: { 200: ZSchedule } },
    },
    async (request) => schedules.get(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/appointments/schedules/:id/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Changes a schedule (409 with the affected bookings unless `on_bookings` says what to do)',
        params: ZIdParams,
        body: ZScheduleUpdate,
        response: { 200: ZSchedule },
      },
    },
    async (request) => schedules.update(contextOf(request), request.params.id, request.body),
  );

  r.delete(
    '/api/appointments/schedules/:id/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Ends a schedule (kept for history; same 409 rule for its future bookings)',
        params: ZIdParams,
        querystring: ZScheduleEndQuery,
        response: { 200: ZSchedule },
      },
    },
    async (request) =>
      schedules.end(contextOf(request), request.params.id, request.query.on_bookings, request.query.reason),
  );

  // Exceptions and holidays ---------------------------------------------------------------------------------

  r.get(
    '/api/appointments/exceptions/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Providers’ leave and training',
        querystring: ZScheduleExceptionListQuery,
        response: { 200: ZScheduleExceptionList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await schedules.exceptions(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/appointments/exceptions/',
    {
      config: providersAndManagers,
      schema: {
        tags,
        summary:
          'Records a provider’s leave or training (a provider for themself; head doctors and administrators)',
        body: ZScheduleExceptionCreate,
        response: { 201: ZScheduleException },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return schedules.addException(contextOf(request), request.body);
    },
  );

  r.delete(
    '/api/appointments/exceptions/:id/',
    {
      config: providersAndManagers,
      schema: { tags, summary: 'Removes an exception', params: ZIdParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await schedules.removeException(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/api/appointments/holidays/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'The hospital’s public holidays',
        querystring: ZDateRangeQuery,
        response: { 200: ZHolidayList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await schedules.holidays(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/appointments/holidays/',
    {
      config: holidays,
      schema: {
        tags,
        summary: 'Adds a public holiday (administrators)',
        body: ZHolidayCreate,
        response: { 201: ZHoliday },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return schedules.addHoliday(contextOf(request), request.body);
    },
  );

  r.delete(
    '/api/appointments/holidays/:id/',
    {
      config: holidays,
      schema: { tags, summary: 'Removes a public holiday', params: ZIdParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await schedules.removeHoliday(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Providers and slots -------------------------------------------------------------------------------------

  r.get(
    '/api/appointments/providers/',
    {
      config: everyone,
      schema: {
        tags,
        summary:
          'The providers who have an active schedule, with its departments (unscheduled=true: and every member who may have one, for schedule managers)',
        querystring: ZScheduleProviderQuery,
        response: { 200: ZScheduleProviderList },
      },
    },
    async (request) => slots.providers(contextOf(request), request.query),
  );

  r.get(
    '/api/appointments/slots/',
    {
      config: slotReaders,
      schema: {
        tags,
        summary: 'Free slots of a provider or a department over a date range ("first available")',
        querystring: ZSlotQuery,
        response: { 200: ZSlotList },
      },
    },
    async (request) => slots.slots(contextOf(request), request.query),
  );

  // Feed links (before /:id/) -------------------------------------------------------------------------------

  r.get(
    '/api/appointments/ics-link/',
    {
      config: everyone,
      schema: { tags, summary: 'Whether I have a calendar feed link', response: { 200: ZIcsLinkState } },
    },
    async (request) => feed.state(contextOf(request)),
  );

  r.post(
    '/api/appointments/ics-link/',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Creates or rotates my calendar feed link (shown once)',
        body: z.object({}).strict().optional(),
        response: { 201: ZIcsLinkCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return feed.create(contextOf(request));
    },
  );

  r.delete(
    '/api/appointments/ics-link/',
    {
      config: everyone,
      schema: { tags, summary: 'Revokes my calendar feed link', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await feed.revoke(contextOf(request));
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/api/appointments/ics/:token.ics',
    {
      config: { access: { public: true }, rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'My appointments as an iCalendar feed (the token is the credential; no patient names)',
        params: ZTokenParams,
      },
    },
    async (request, reply) => {
      const body = await feed.feed(contextOf(request), request.params.token);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex')
        .send(body);
    },
  );

  // Appointments --------------------------------------------------------------------------------------------

  r.get(
    '/api/appointments/',
    {
      config: read,
      schema: {
        tags,
        summary: 'Appointments, filtered and paginated',
        querystring: ZAppointmentListQuery,
        response: { 200: ZAppointmentList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await appointments.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/appointments/',
    {
      config: book,
      schema: {
        tags,
        summary: 'Books a slot for a patient (409 when it is full; `overbook`: head doctors)',
        body: ZAppointmentCreate,
        response: { 201: ZAppointment },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return appointments.book(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/appointments/today/',
    {
      config: read,
      schema: {
        tags,
        summary: 'My appointments today with their check-in state',
        response: { 200: ZTodayAppointments },
      },
    },
    async (request) => appointments.today(contextOf(request)),
  );

  r.get(
    '/api/appointments/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: 'An appointment with its reschedule history',
        params: ZIdParams,
        response: { 200: ZAppointmentDetail },
      },
    },
    async (request) => appointments.get(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/appointments/:id/',
    {
      config: book,
      schema: {
        tags,
        summary: 'Changes the reason, notes or type',
        params: ZIdParams,
        body: ZAppointmentUpdate,
        response: { 200: ZAppointment },
      },
    },
    async (request) => appointments.update(contextOf(request), request.params.id, request.body),
  );

  const empty = z.object({}).strict().optional();
  const transition = (
    path: string,
    summary: string,
    fn: (ctx: ReturnType<typeof contextOf>, id: string) => Promise<unknown>,
  ) =>
    r.post(
      `/api/appointments/:id/${path}/`,
      {
        config: book,
        schema: { tags, summary, params: ZIdParams, body: empty, response: { 200: ZAppointment } },
      },
      async (request) => fn(contextOf(request), request.params.id) as never,
    );
  transition('confirm', 'Confirms an appointment', (ctx, id) => appointments.confirm(ctx, id));
  transition('no-show', 'Records that the patient did not come', (ctx, id) => appointments.noShow(ctx, id));
  transition('complete', 'Completes a checked-in appointment', (ctx, id) => appointments.complete(ctx, id));

  r.post(
    '/api/appointments/:id/cancel/',
    {
      config: book,
      schema: {
        tags,
        summary: 'Cancels an appointment, with a reason',
        params: ZIdParams,
        body: ZAppointmentCancel,
        response: { 200: ZAppointment },
      },
    },
    async (request) => appointments.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.post(
    '/api/appointments/:id/reschedule/',
    {
      config: book,
      schema: {
        tags,
        summary: 'Moves an appointment to another slot (the history keeps the old one)',
        params: ZIdParams,
        body: ZAppointmentReschedule,
        response: { 200: ZAppointment },
      },
    },
    async (request) => appointments.reschedule(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/appointments/:id/check-in/',
    {
      config: desk,
      schema: {
        tags,
        summary: 'Checks the patient in: opens the visit in the appointment’s department (the queues)',
        params: ZIdParams,
        body: empty,
        response: { 200: ZCheckInResult },
      },
    },
    async (request) => appointments.checkIn(contextOf(request), request.params.id),
  );
}
