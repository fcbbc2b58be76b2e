import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSend, encodeSend, type SerialisedDelivery } from './bus-message.js';

const hospital = randomUUID();
const sender = randomUUID();
const stay = randomUUID();

/** A notification's envelope as the gateway serialises it, for one recipient. */
function notification(recipient: string, lang: 'fr' | 'en' = 'fr'): SerialisedDelivery {
  const envelope = {
    action: 'new_notification',
    hospital,
    message: {
      id: randomUUID(),
      notification_type: 'hospitalization',
      title: lang === 'fr' ? 'Patient en attente de lit' : 'Patient waiting for a bed',
      message:
        lang === 'fr' ? 'Mme Kabila attend un lit en chirurgie.' : 'Mrs Kabila waits for a bed in surgery.',
      data: { action: 'hospitalization_pending', hospitalization_id: stay, department: 'CHI' },
      initiated_by: sender,
      is_read: false,
      read_at: null,
      created_at: '2026-12-07T09:41:00.000Z',
      hospital,
    },
  };
  return { userId: recipient, hospital, json: JSON.stringify(envelope) };
}

function decodeAll(body: string, wanted: (userId: string) => boolean = () => true) {
  const out: SerialisedDelivery[] = [];
  decodeSend(body, wanted, (userId, hospital, json) => out.push({ userId, hospital, json }));
  return out;
}

describe('bus message of a send', () => {
  it('gives every delivery back as it was serialised, in order', () => {
    const deliveries = [
      notification(randomUUID()),
      notification(randomUUID(), 'en'),
      {
        userId: randomUUID(),
        hospital: null,
        json: JSON.stringify({ action: 'chat', message: { text: 'a\tb\nc\u0001' } }),
      },
      notification(randomUUID()),
    ];
    expect(decodeAll(encodeSend(deliveries))).toEqual(deliveries);
  });

  it('carries the text of 200 recipients once per language: a template each, then a line of ids per delivery', () => {
    const deliveries = Array.from({ length: 200 }, (_, i) => notification(randomUUID(), i % 4 ? 'fr' : 'en'));
    const body = encodeSend(deliveries);
    const lines = body.split('\n');
    expect(lines[0]).toBe('2');
    expect(lines).toHaveLength(1 + 2 + 200);
    // The recipient, the hospital, the template, and the one UUID that changes from one envelope to the next (the
    // notification's own); the hospital, the stay and the sender are written once, in the templates.
    expect(lines[3]).toMatch(/^[0-9a-f-]{36}\t[0-9a-f-]{36}\t[01]\t[0-9a-f-]{36}$/);
    expect(lines[1]!.split('\u0001')).toHaveLength(2);
    const lineByLine = deliveries.map((d) => `${d.userId}\t${d.hospital}\t${d.json}`).join('\n');
    expect(body.length).toBeLessThan(lineByLine.length * 0.35);
    expect(decodeAll(body)).toEqual(deliveries);
  });

  it('rebuilds only the deliveries of the users asked for', () => {
    const deliveries = [notification(randomUUID()), notification(randomUUID()), notification(randomUUID())];
    const second = deliveries[1]!.userId;
    expect(decodeAll(encodeSend(deliveries), (userId) => userId === second)).toEqual([deliveries[1]]);
  });

  it('skips what does not read: a line without its fields, an unknown template, ids of the wrong length', () => {
    const good = notification(randomUUID());
    const [count, template, line] = encodeSend([good, notification(randomUUID())]).split('\n') as [
      string,
      string,
      string,
    ];
    const [userId, hospitalId, , ids] = line.split('\t') as [string, string, string, string];
    const body = [
      count,
      template,
      'no tabs here',
      `${userId}\t${hospitalId}\t7\t${ids}`,
      `${userId}\t${hospitalId}\t\t${ids}`,
      `${userId}\t${hospitalId}\t0\t${ids.slice(1)}`,
      `${userId}\t${hospitalId}`,
      line,
    ].join('\n');
    expect(decodeAll(body)).toEqual([good]);
    // Another version's message (the line-per-delivery format) delivers nothing.
    expect(decodeAll(`${userId}\t${hospitalId}\t${good.json}`)).toEqual([]);
    expect(decodeAll('')).toEqual([]);
  });
});
