import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { departments, hospitals, memberships, users } from '../src/db/schema/index.js';
import { signAccessToken } from '../src/lib/tokens.js';

const uid = () => randomBytes(4).toString('hex');

export async function makeHospital(db: Db, over: Partial<typeof hospitals.$inferInsert> = {}) {
  const code = over.code ?? `H${uid().toUpperCase()}`;
  const [h] = await db
    .insert(hospitals)
    .values({ name: `Hôpital ${code}`, code, ...over })
    .returning();
  const deps = await db
    .insert(departments)
    .values([
      { hospitalId: h!.id, code: 'URG', name: 'Urgences', kind: 'emergency' as const },
      { hospitalId: h!.id, code: 'MED', name: 'Médecine interne', kind: 'clinical' as const },
      { hospitalId: h!.id, code: 'MAT', name: 'Maternité', kind: 'maternity' as const },
    ])
    .returning();
  return { ...h!, departments: deps };
}

export interface MadeUser {
  id: string;
  email: string;
  password: string;
  tokenVersion: number;
}

/** A verified, active user with a role in each given hospital (no hospital = waiting for assignment). */
export async function makeUser(
  db: Db,
  opts: {
    role?: string;
    hospitals?: { id: string; departmentId?: string | null }[];
    email?: string;
    active?: boolean;
    verified?: boolean;
    passwordHash?: string;
    language?: 'fr' | 'en';
  } = {},
): Promise<MadeUser> {
  const email = opts.email ?? `user-${uid()}@example.test`;
  const [u] = await db
    .insert(users)
    .values({
      email,
      username: email.split('@')[0]!,
      firstName: 'Test',
      lastName: 'User',
      // Tests that sign in pass a real argon2 hash; others never check the password.
      passwordHash: opts.passwordHash ?? 'x',
      isActive: opts.active ?? true,
      emailVerifiedAt: opts.verified === false ? null : new Date(),
      languagePreference: opts.language ?? 'fr',
    })
    .returning();
  if (opts.role && opts.hospitals?.length) {
    await db.insert(memberships).values(
      opts.hospitals.map((h) => ({
        userId: u!.id,
        hospitalId: h.id,
        departmentId: h.departmentId ?? null,
        roleCode: opts.role!,
      })),
    );
  }
  return { id: u!.id, email, password: 'x', tokenVersion: u!.tokenVersion };
}

export async function tokenFor(secret: string, user: Pick<MadeUser, 'id' | 'tokenVersion'>) {
  return signAccessToken(secret, { userId: user.id, tokenVersion: user.tokenVersion });
}

export function authHeaders(token: string, hospitalId?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(hospitalId ? { 'hospital-id': hospitalId } : {}) };
}

/** A demo account (seed/demo.ts) acting in HGG: its id and headers. */
export async function demoActor(db: Db, secret: string, email: string) {
  const res = await db.execute<{ id: string; token_version: number; hospital_id: string }>(
    sql`select u.id, u.token_version, m.hospital_id from users u join memberships m on m.user_id = u.id
      join hospitals h on h.id = m.hospital_id where u.email = ${email} and h.code = 'HGG'`,
  );
  const u = res.rows[0]!;
  const token = await tokenFor(secret, { id: u.id, tokenVersion: Number(u.token_version) });
  return { id: u.id, headers: authHeaders(token, u.hospital_id) };
}
