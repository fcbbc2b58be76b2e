import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import { addDays, zonedDate, zonedInstant, zonedParts } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import { fullName } from '../../lib/clinical.js';
import { type Lang, translate } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';
import { claimReminder, dueReminders, hospitalsReminderTimes } from './reminders.repository.js';
import type { SmsSender } from './sms.js';

export const REMINDER_JOB = 'appointments.reminders';

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
  const hospitals = await hospitalsReminderTimes(app.db);
  let emails = 0;
  let texts = 0;
  for (const h of hospitals) {
    const at = h.at ?? DEFAULT_HOSPITAL_SETTINGS.appointment_reminder_time;
    const p = zonedParts(now, h.time_zone);
    const local = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    if (local < at) continue;
    const tomorrow = addDays(zonedDate(now, h.time_zone), 1);
    const from = zonedInstant(tomorrow, '00:00', h.time_zone);
    const to = zonedInstant(addDays(tomorrow, 1), '00:00', h.time_zone);
    const mails: MailMessage[] = [];
    await app.db.transaction(async (tx) => {
      const due = await dueReminders(tx, h.id, from, to);
      for (const r of due) {
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
        const claim = (channel: 'email' | 'sms') =>
          claimReminder(tx, { hospitalId: h.id, appointmentId: r.id, start, channel, language: lang });
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
