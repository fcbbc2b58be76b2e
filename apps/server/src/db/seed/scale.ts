import { sql } from 'drizzle-orm';
import type { Db } from '../client.js';

/** Congolese and French names, with their accents, combined at random into synthetic patients. */
const FIRST_NAMES = [
  'Éloïse',
  'Grâce',
  'Bénédicte',
  'Thérèse',
  'Héritier',
  'Gloire',
  'Dieudonné',
  'Désiré',
  'Aimée',
  'Céline',
  'Françoise',
  'Joël',
  'Noël',
  'Rémy',
  'Océane',
  'Jean-Pierre',
  'Marie',
  'Joseph',
  'Patrick',
  'Sarah',
  'Esther',
  'Didier',
  'Ruth',
  'Michel',
  'Sylvie',
  'André',
  'Chantal',
  'Emmanuel',
  'Espérance',
  'Fidèle',
  'Merveille',
  'Prince',
  'Divine',
  'Christelle',
  'Jérémie',
  'Léa',
  'Chloé',
  'Hélène',
  'Gaëlle',
  'Benoît',
];
const LAST_NAMES = [
  'Mbuyi',
  'Kabongo',
  'Tshilombo',
  'Kasongo',
  'Ngalula',
  'Mukendi',
  'Kalala',
  'Ilunga',
  'Mwamba',
  'Lumbala',
  'Mbombo',
  'Tshibangu',
  'Kapinga',
  'Nzuzi',
  'Makiese',
  'Mavinga',
  'Lutete',
  'Mpiana',
  'Kiala',
  'Banza',
  'Lukusa',
  'Kalonji',
  'Tshibanda',
  'Kabila',
  'Ngoy',
  'Mutombo',
  'Kanku',
  'Kazadi',
  'Mulumba',
  'Tshisekedi',
  'Nkulu',
  'Kabeya',
  'Mbala',
  'Ndaye',
  'Bokele',
  'Lefèvre',
  'Dupont',
  'Moreau',
  'Girard',
  'Bérenger',
];

/**
 * Bulk-loads `count` synthetic patients into the first hospital, in batches of `generate_series` SQL (one
 * statement per batch, server-side), taking their record numbers from the hospital's sequence. Meant for
 * proving search speed (`npm run seed:scale -- --patients 1000000`); never run it on a real hospital.
 */
export async function seedScale(
  db: Db,
  count: number,
  onProgress: (done: number) => void = () => {},
  batch = 50_000,
): Promise<{ hospital: string; inserted: number }> {
  const h = await db.execute<{ id: string; code: string }>(
    sql`select id, code from hospitals order by created_at, id limit 1`,
  );
  const hospital = h.rows[0];
  if (!hospital) throw new Error('No hospital: seed the demo first (npm run seed:demo).');
  const first = sql`${`{${FIRST_NAMES.map((n) => `"${n}"`).join(',')}}`}::text[]`;
  const last = sql`${`{${LAST_NAMES.map((n) => `"${n}"`).join(',')}}`}::text[]`;
  let done = 0;
  while (done < count) {
    const n = Math.min(batch, count - done);
    await db.transaction(async (tx) => {
      const seq = await tx.execute<{ value: number }>(sql`
        insert into hospital_sequences (hospital_id, name, value) values (${hospital.id}, 'patient_record', ${n})
        on conflict (hospital_id, name) do update set value = hospital_sequences.value + ${n}
        returning value`);
      const startAt = Number(seq.rows[0]!.value) - n + 1;
      await tx.execute(sql`
        insert into patients (id, hospital_id, record_number, first_name, last_name, sex, birth_date,
          birth_date_estimated, phone, allergies)
        select gen_random_uuid(), ${hospital.id},
          ${hospital.code} || '-' || lpad(n::text, greatest(6, length(n::text)), '0'),
          (${first})[1 + floor(random() * ${FIRST_NAMES.length})::int],
          (${last})[1 + floor(random() * ${LAST_NAMES.length})::int]
            || case when random() < 0.3 then ' ' || (${last})[1 + floor(random() * ${LAST_NAMES.length})::int] else '' end,
          case when random() < 0.5 then 'F'::sex else 'M'::sex end,
          date '1930-01-01' + floor(random() * 33000)::int,
          random() < 0.15,
          case when random() < 0.7 then '+2438' || lpad(floor(random() * 100000000)::text, 8, '0') end,
          case when random() < 0.05 then '{Pénicilline}'::text[] else '{}'::text[] end
        from generate_series(${startAt}::int, ${startAt + n - 1}::int) n`);
    });
    done += n;
    onProgress(done);
  }
  await db.execute(sql`analyze patients`);
  return { hospital: hospital.code, inserted: done };
}
