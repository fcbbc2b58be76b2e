/**
 * The body of a `send` bus message (decision 0092): the envelopes of one event, written once for every instance.
 *
 * The notifications of one event differ from one recipient to the next only in their ids (each recipient's
 * notification has its own) and in the language of their texts: the 200 nurses of a ward got 200 copies of the same
 * ~700 characters. The body carries each distinct envelope once, as a template — its JSON with the UUIDs that change
 * from one delivery to the next taken out (those that are the same in all of them, such as the hospital or the
 * sender, stay in it) — and one line per delivery with its template's number and those UUIDs:
 *
 * ```
 * <number of templates>
 * <template 0: the envelope's JSON, each UUID that changes replaced by U+0001>
 * …
 * <userId>\t<hospital or empty>\t<template number>\t<its UUIDs, 36 characters each, one after the other>
 * …
 * ```
 *
 * `JSON.stringify` escapes every control character, so U+0001, tabs and newlines never occur inside a JSON text and
 * only ever separate fields. A receiver reads the templates (a few lines), then looks up each delivery's user and
 * rebuilds the JSON only for the users it has sockets for: no JSON parse, no serialisation again.
 */

/** A delivery with its envelope serialised once. */
export interface SerialisedDelivery {
  userId: string;
  hospital: string | null;
  json: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const UUID_LENGTH = 36;
const HOLE = '\u0001';

/** The body of a `send` message for these deliveries. */
export function encodeSend(deliveries: readonly SerialisedDelivery[]): string {
  // Each envelope with its UUIDs taken out, grouped by what is left.
  const groups = new Map<string, { parts: string[]; ids: string[][] }>();
  const rows: { delivery: SerialisedDelivery; template: string; ids: string[] }[] = [];
  for (const delivery of deliveries) {
    const ids: string[] = [];
    const template = delivery.json.replace(UUID, (id) => {
      ids.push(id);
      return HOLE;
    });
    let group = groups.get(template);
    if (!group) {
      group = { parts: template.split(HOLE), ids: [] };
      groups.set(template, group);
    }
    group.ids.push(ids);
    rows.push({ delivery, template, ids });
  }
  // A UUID that is the same in every envelope of a group (the hospital, the sender) goes back into its template:
  // only those that change from one delivery to the next (the notification's own id) stay on the lines.
  const templates = new Map<string, { index: number; varies: boolean[] }>();
  const texts: string[] = [];
  for (const [key, group] of groups) {
    const first = group.ids[0] ?? [];
    const varies = first.map((id, i) => group.ids.some((ids) => ids[i] !== id));
    const text = group.parts.reduce(
      (out, part, i) => (i === 0 ? part : out + (varies[i - 1] ? HOLE : first[i - 1]) + part),
      '',
    );
    templates.set(key, { index: texts.length, varies });
    texts.push(text);
  }
  const lines = rows.map(({ delivery, template, ids }) => {
    const { index, varies } = templates.get(template) as { index: number; varies: boolean[] };
    return `${delivery.userId}\t${delivery.hospital ?? ''}\t${index}\t${ids.filter((_, i) => varies[i]).join('')}`;
  });
  return `${templates.size}\n${texts.join('\n')}\n${lines.join('\n')}`;
}

/**
 * Reads a `send` body: calls `deliver` for each delivery whose user `wanted` accepts, with its JSON rebuilt.
 * Lines that do not read (another version's message, a damaged one) are skipped.
 */
export function decodeSend(
  body: string,
  wanted: (userId: string) => boolean,
  deliver: (userId: string, hospital: string | null, json: string) => void,
): void {
  let start = body.indexOf('\n');
  if (start < 1) return;
  const count = Number(body.slice(0, start));
  if (!Number.isInteger(count) || count < 0) return;
  start += 1;
  const templates: string[][] = [];
  for (let i = 0; i < count; i += 1) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    templates.push(body.slice(start, end).split(HOLE));
    start = end + 1;
  }
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = start;
    start = end + 1;
    const tab = body.indexOf('\t', line);
    if (tab <= line || tab > end) continue;
    const userId = body.slice(line, tab);
    if (!wanted(userId)) continue;
    const tab2 = body.indexOf('\t', tab + 1);
    const tab3 = tab2 < 0 ? -1 : body.indexOf('\t', tab2 + 1);
    if (tab3 < 0 || tab3 > end || tab3 === tab2 + 1) continue;
    const parts = templates[Number(body.slice(tab2 + 1, tab3))];
    const ids = body.slice(tab3 + 1, end);
    if (!parts || ids.length !== (parts.length - 1) * UUID_LENGTH) continue;
    let json = parts[0] ?? '';
    for (let i = 1; i < parts.length; i += 1) {
      json += ids.slice((i - 1) * UUID_LENGTH, i * UUID_LENGTH) + parts[i];
    }
    deliver(userId, body.slice(tab + 1, tab2) || null, json);
  }
}
