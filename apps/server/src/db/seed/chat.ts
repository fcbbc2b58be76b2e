import { sql } from 'drizzle-orm';
import { type BareConversation, ensureChannels, markReadUpTo } from '../../modules/chat/chat.repository.js';
import type { Queryable } from '../client.js';
import { uuidv7 } from '../schema/common.js';

const MINUTE = 60_000;

/**
 * The demo's messaging (issue 23): every department's channel, a direct conversation between medecin@ and
 * infirmier@ with a patient reference, a group with the secretary (who sees the patient only as "a patient
 * record") and a message in the emergency channel. Times are relative to now; unread messages wait for each of them.
 */
export async function seedChat(tx: Queryable) {
  const ids = await tx.execute<{ email: string; id: string; hospital_id: string }>(sql`select u.email, u.id,
      h.id as hospital_id from users u join memberships m on m.user_id = u.id join hospitals h on h.id = m.hospital_id
    where h.code = 'HGG' and u.email in ('medecin@greensen.test', 'infirmier@greensen.test',
      'secretaire@greensen.test', 'file@greensen.test')`);
  const who = new Map(ids.rows.map((r) => [r.email.split('@')[0]!, r.id]));
  const hospitalId = ids.rows[0]!.hospital_id;
  const hospitals = await tx.execute<{ id: string }>(sql`select id from hospitals`);
  for (const h of hospitals.rows) await ensureChannels(tx, h.id);
  const patient = await tx.execute<{
    id: string;
  }>(sql`select id from patients where hospital_id = ${hospitalId}
    order by record_number limit 1`);
  const patientId = patient.rows[0]?.id ?? null;

  const doctor = who.get('medecin')!;
  const nurse = who.get('infirmier')!;
  const secretary = who.get('secretaire')!;
  const charge = who.get('file')!;
  const now = Date.now();

  async function conversation(kind: 'direct' | 'group', members: string[], title: string | null) {
    const id = uuidv7();
    const [low, high] = [...members].sort();
    await tx.execute(sql`insert into chat_conversations (id, hospital_id, kind, title, direct_low, direct_high, created_by,
        created_at, last_message_at)
      values (${id}, ${hospitalId}, ${kind}, ${title}, ${kind === 'direct' ? low! : null}, ${kind === 'direct' ? high! : null},
        ${members[0]!}, ${new Date(now - 120 * MINUTE).toISOString()}::timestamptz, ${new Date(now - 120 * MINUTE).toISOString()}::timestamptz)`);
    for (const m of members)
      await tx.execute(
        sql`insert into chat_members (conversation_id, user_id, hospital_id) values (${id}, ${m}, ${hospitalId})`,
      );
    return id;
  }
  async function say(
    conversationId: string,
    author: string,
    minutesAgo: number,
    body: string,
    patient: string | null = null,
  ) {
    const id = uuidv7();
    const at = new Date(now - minutesAgo * MINUTE);
    await tx.execute(sql`insert into chat_messages (id, hospital_id, conversation_id, author_id, body, patient_id, created_at)
      values (${id}, ${hospitalId}, ${conversationId}, ${author}, ${body}, ${patient}, ${at.toISOString()}::timestamptz)`);
    await tx.execute(sql`update chat_conversations set last_message_at = greatest(last_message_at, ${at.toISOString()}::timestamptz)
      where id = ${conversationId}`);
    await markReadUpTo(tx, { conversationId, userId: author, hospitalId, messageId: id, at });
    return { id, at };
  }
  const read = (conversationId: string, userId: string, m: { id: string; at: Date }) =>
    markReadUpTo(tx, { conversationId, userId, hospitalId, messageId: m.id, at: m.at });

  const direct = await conversation('direct', [doctor, nurse], null);
  const d1 = await say(direct, doctor, 55, 'Bonjour Esther, pouvez-vous reprendre les constantes du box 2 ?');
  const d2 = await say(direct, nurse, 50, 'C’est fait : tension 13/8, température 38,4 °C.', patientId);
  await read(direct, doctor, d2);
  await read(direct, nurse, d1);
  await say(direct, nurse, 12, 'La fièvre persiste, je vous attends pour la réévaluation.', patientId);
  await say(direct, nurse, 8, 'Le bilan sanguin est parti au laboratoire.');

  const group = await conversation('group', [doctor, nurse, secretary], 'Coordination accueil');
  const g1 = await say(group, secretary, 40, 'Trois patients attendent à l’accueil des urgences.');
  await read(group, doctor, g1);
  await read(group, nurse, g1);
  await say(
    group,
    doctor,
    20,
    'Bien noté. Pouvez-vous prévenir la famille de ce patient de son transfert ?',
    patientId,
  );
  await say(group, nurse, 5, 'Je m’occupe du premier patient.');

  const channel = await tx.execute<{ id: string }>(sql`select c.id from chat_conversations c
    join departments d on d.id = c.department_id where d.hospital_id = ${hospitalId} and d.code = 'URG'`);
  const urg = channel.rows[0]!.id;
  await say(urg, charge, 30, 'Rappel : transmissions de l’équipe de jour à 14 h en salle de soins.');
  return { direct, group, channel: urg } satisfies Record<string, BareConversation['id']>;
}
