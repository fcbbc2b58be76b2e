import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import { addDays, zonedDate, zonedInstant, zonedParts } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../db/schema/common.js';
import { fullName } from '../../lib/clinical.js';
import { type Lang, translate } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';
import type { SmsSender } from './sms.js';

export const REMINDER_JOB = 'appointments.reminders';

interface DueRow extends Record<string, unknown> {
  id: string;
  start_at: Date | string;
  appointment_type: string;
  phone: string | null;
  email: string | null;
  preferred_language: string | null;
  pr_first: string;
  pr_last: string;
  d_name: string;
}

/** The reminder's texts in the patient's language: when, with whom, where. No reason, no diagnosis. */
export function reminderTexts(
  lang: Lang,
  r: { start: Date; zone: string; provider: string; department: string; hospital: string; type: string },
) {
  const day = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
    timeZone: r.zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(r.start);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: r.zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(r.start);
  const params = {
    day,
    time,
    provider: r.provider,
    department: r.department,
    hospital: r.hospital,
    type: translate(lang, `appointments.type.${r.type}`),
  };
  return {
    subject: translate(lang, 'appointments.reminder.subject', params),
    text: translate(lang, 'appointments.reminder.text', params),
    sms: translate(lang, 'appointments.reminder.sms', params),
  };
}

/**
 * Sends tomorrow's reminders of every hospital whose reminder time (hospital setting, local time) has passed today:
 * email (through the mail path) when the patient has an address, SMS (through `sms`) when they have a number. Each
 * (appointment, start, channel) is claimed once by a unique row, so that repeated or concurrent runs send nothing
 * twice; a booking made later that evening is reminded by the next run.
 */
export async function sendDueReminders(app: FastifyInstance, sms: SmsSender, now: Date) {
  const hospitals = await app.db.execute<{ id: string; name: string; time_zone: string; at: string | null }>(
    sql`select h.id, h.name, h.time_zone, s.appointment_reminder_time as at
      from hospitals h left join hospital_settings s on s.hospital_id = h.id`,
  );
  let emails = 0;
  let texts = 0;
  for (const h of hospitals.rows) {
    const at = h.at ?? DEFAULT_HOSPITAL_SETTINGS.appointment_reminder_time;
    const p = zonedParts(now, h.time_zone);
    const local = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    if (local < at) continue;
    const tomorrow = addDays(zonedDate(now, h.time_zone), 1);
    const from = zonedInstant(tomorrow, '00:00', h.time_zone);
    const to = zonedInstant(addDays(tomorrow, 1), '00:00', h.time_zone);
    const mails: MailMessage[] = [];
    await app.db.transaction(async (tx) => {
      const due = await tx.execute<DueRow>(sql`select a.id, a.start_at, a.appointment_type, p.phone, p.email,
          p.preferred_language, pr.first_name as pr_first, pr.last_name as pr_last, d.name as d_name
        from appointments a join patients p on p.id = a.patient_id join users pr on pr.id = a.provider_id
          join departments d on d.id = a.department_id
        where a.hospital_id = ${h.id} and a.status in ('booked', 'confirmed')
          and a.start_at >= ${from.toISOString()}::timestamptz and a.start_at < ${to.toISOString()}::timestamptz
          and (p.phone is not null or p.email is not null)
          and not exists (select 1 from appointment_reminders r where r.appointment_id = a.id
            and r.start_at = a.start_at and r.channel = case when p.email is null then 'sms' else 'email' end)
        order by a.start_at limit 2000`);
      for (const r of due.rows) {
        const lang: Lang = r.preferred_language === 'en' ? 'en' : 'fr';
        const start = new Date(r.start_at);
        const texts_ = reminderTexts(lang, {
          start,
          zone: h.time_zone,
          provider: fullName(r.pr_first, r.pr_last),
          department: r.d_name,
          hospital: h.name,
          type: r.appointment_type,
        });
        const claim = async (channel: 'email' | 'sms') => {
          const res =
            await tx.execute(sql`insert into appointment_reminders (id, hospital_id, appointment_id, start_at,
              channel, language)
            values (${uuidv7()}, ${h.id}, ${r.id}, ${start.toISOString()}::timestamptz, ${channel}, ${lang})
            on conflict (appointment_id, start_at, channel) do nothing returning id`);
          return res.rows.length > 0;
        };
        if (r.email && (await claim('email'))) {
          mails.push({ to: r.email, subject: texts_.subject, text: texts_.text });
          emails += 1;
        }
        if (r.phone && (await claim('sms'))) {
          await sms.send(tx, {
            hospitalId: h.id,
            to: r.phone,
            body: texts_.sms,
            language: lang,
            purpose: 'appointments.reminder',
          });
          texts += 1;
        }
      }
    });
    // The mail path writes in its own transaction: after the claims have committed.
    for (const m of mails) await app.mailer.send(m);
  }
  return { emails, sms: texts };
}
