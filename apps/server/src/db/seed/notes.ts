import { sql } from 'drizzle-orm';
import type { Queryable } from '../client.js';
import { uuidv7 } from '../schema/common.js';
import { notes } from '../schema/index.js';

/**
 * The demo's notes (issue 23): medecin@'s personal notes at HGG (one pinned, with tags and some Markdown) and notes
 * about Didier, the inpatient of the care demo, by the doctor and a nurse. Times are relative to now (any hour).
 */
export async function seedNotes(tx: Queryable): Promise<number> {
  const hgg = (await tx.execute<{ id: string }>(sql`select id from hospitals where code = 'HGG'`)).rows[0];
  const people = await tx.execute<{ id: string; email: string }>(
    sql`select id, email from users where email in ('medecin@greensen.test', 'infirmier@greensen.test')`,
  );
  const doctor = people.rows.find((p) => p.email === 'medecin@greensen.test')?.id;
  const nurse = people.rows.find((p) => p.email === 'infirmier@greensen.test')?.id;
  if (!hgg || !doctor || !nurse) return 0;
  const patient = (
    await tx.execute<{ id: string }>(sql`select id from patients where hospital_id = ${hgg.id}
      order by (first_name = 'Didier') desc, record_number limit 1`)
  ).rows[0];
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  const drafts: (Omit<typeof notes.$inferInsert, 'id' | 'hospitalId'> & { at: number })[] = [
    {
      authorId: doctor,
      title: 'Garde de ce week-end',
      body: '## À faire\n- Rappeler le **laboratoire** pour la glycémie de 6 h\n- Revoir les sorties prévues\n\n*Bip du réanimateur : 412*',
      tags: ['garde', 'à faire'],
      pinned: true,
      at: 2,
    },
    {
      authorId: doctor,
      title: 'Protocole paludisme grave — points à rediscuter',
      body: '1. Artésunate IV dès l’arrivée\n2. Relais oral après 24 h si l’état le permet\n\nÀ présenter au staff de jeudi.',
      tags: ['protocole', 'staff'],
      pinned: false,
      at: 26,
    },
    {
      authorId: doctor,
      title: 'Lecture : recommandations HTA 2026',
      body: 'Seuils de traitement inchangés ; insister sur la mesure à domicile.',
      tags: ['lecture'],
      pinned: false,
      at: 72,
    },
    ...(patient
      ? [
          {
            authorId: doctor,
            patientId: patient.id,
            title: 'Contexte social',
            body: '- Vit seul, sa fille passe le soir\n- Préférer un appel **après 18 h** pour les nouvelles',
            tags: ['social'],
            pinned: true,
            at: 20,
          },
          {
            authorId: nurse,
            patientId: patient.id,
            title: 'Voie veineuse',
            body: 'Capital veineux pauvre : privilégier l’avant-bras gauche.',
            tags: ['soins'],
            pinned: false,
            at: 6,
          },
        ]
      : []),
  ];
  const rows = drafts.map(({ at, ...n }) => ({
    ...n,
    id: uuidv7(),
    hospitalId: hgg.id,
    createdAt: ago(at),
    updatedAt: ago(at),
  }));
  await tx.insert(notes).values(rows);
  return rows.length;
}
