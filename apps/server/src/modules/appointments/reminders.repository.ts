/** The appointment reminders' statements (decision 0028): the hospitals' reminder times, the due bookings, the claims. */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';

/** Every hospital with its reminder time (null without a settings row). */
export async function hospitalsReminderTimes(q: Queryable) {
  const res = await q.execute<{ id: string; name: string; time_zone: string; at: string | null }>(
    sql`select h.id, h.name, h.time_zone, s.appointment_reminder_time as at
      from hospitals h left join hospital_settings s on s.hospital_id = h.id`,
  );
  return res.rows;
}

export type DueRow = {
  id: string;
  start_at: Date | string;
  appointment_type: string;
  phone: string | null;
  email: string | null;
  preferred_language: string | null;
  pr_first: string;
  pr_last: string;
  d_name: string;
};

/**
 * The hospital's open bookings starting in `[from, to)` of a patient with a phone or an address, not yet reminded
 * at this start on the channel the patient gets (at most 2,000, earliest first).
 */
export async function dueReminders(
  q: Queryable,
  hospitalId: string,
  from: Date,
  to: Date,
): Promise<DueRow[]> {
  const due = await q.execute<DueRow>(sql`select a.id, a.start_at, a.appointment_type, p.phone, p.email,
          p.preferred_language, pr.first_name as pr_first, pr.last_name as pr_last, d.name as d_name
        from appointments a join patients p on p.id = a.patient_id join users pr on pr.id = a.provider_id
          join departments d on d.id = a.department_id
        where a.hospital_id = ${hospitalId} and a.status in ('booked', 'confirmed')
          and a.start_at >= ${from.toISOString()}::timestamptz and a.start_at < ${to.toISOString()}::timestamptz
          and (p.phone is not null or p.email is not null)
          and not exists (select 1 from appointment_reminders r where r.appointment_id = a.id
            and r.start_at = a.start_at and r.channel = case when p.email is null then 'sms' else 'email' end)
        order by a.start_at limit 2000`);
  return due.rows;
}

/** Claims the reminder of a booking's start on a channel: false when it is claimed already. */
export async function claimReminder(
  q: Queryable,
  r: { hospitalId: string; appointmentId: string; start: Date; channel: 'email' | 'sms'; language: string },
): Promise<boolean> {
  const res =
    await q.execute(sql`insert into appointment_reminders (id, hospital_id, appointment_id, start_at,
              channel, language)
            values (${uuidv7()}, ${r.hospitalId}, ${r.appointmentId}, ${r.start.toISOString()}::timestamptz, ${r.channel}, ${r.language})
            on conflict (appointment_id, start_at, channel) do nothing returning id`);
  return res.rows.length > 0;
}
