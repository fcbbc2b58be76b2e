// SQL outside a repository: the default SMS sender: its one statement is the outbox row it writes (as lib/mail.ts).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';

/** A text message to a patient (appointment reminders). */
export interface SmsMessage {
  hospitalId: string;
  /** The patient's number as recorded (digits with an optional leading +). */
  to: string;
  body: string;
  language: 'fr' | 'en';
  /** What sends it, e.g. `appointments.reminder`. */
  purpose: string;
}

/**
 * Where text messages go (decision 0028). `send` runs inside the caller's transaction (`q`), so that a message
 * exists only if the work that sent it commits. The default writes the `sms_outbox` table and nothing else (no SMS
 * provider is reachable here). A real provider plugs in as another implementation that writes the same outbox row
 * and enqueues a delivery job in the same transaction (like `mail.deliver`): the job calls the provider's API and
 * sets `sent_at` and `provider_ref`, or `error` and retries with backoff.
 */
export interface SmsSender {
  readonly name: string;
  send(q: Queryable, message: SmsMessage): Promise<string>;
}

/** The default sender: the outbox only. */
export class OutboxSmsSender implements SmsSender {
  readonly name = 'outbox';

  async send(q: Queryable, m: SmsMessage): Promise<string> {
    const id = uuidv7();
    await q.execute(sql`insert into sms_outbox (id, hospital_id, to_number, body, language, purpose)
      values (${id}, ${m.hospitalId}, ${m.to}, ${m.body}, ${m.language}, ${m.purpose})`);
    return id;
  }
}
