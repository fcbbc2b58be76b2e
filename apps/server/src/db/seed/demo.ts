import { eq } from 'drizzle-orm';
import { hashSecret } from '../../lib/passwords.js';
import type { Db } from '../client.js';
import { beds, departments, hospitals, memberships, rooms, users, wards } from '../schema/index.js';
import { seedAppointments } from './appointments.js';
import { seedBilling } from './billing.js';
import { seedCare } from './care.js';
import { seedChat } from './chat.js';
import { seedExams } from './exams.js';
import { seedInpatient } from './inpatient.js';
import { seedJourney } from './journey.js';
import { seedNotes } from './notes.js';
import { seedPharmacy } from './pharmacy.js';
import { seedDhis2Mapping, seedStatsHistory } from './stats.js';

export { databaseIsEmpty } from '../installation.js';

export const DEMO_PASSWORD = 'Demo-Greensen-2026';

type Kind = (typeof departments.$inferInsert)['kind'];

export const DEMO_HOSPITALS = [
  {
    code: 'HGG',
    name: 'Hôpital Général de Greensen',
    timeZone: 'Africa/Kinshasa',
    // Billed in F CFA (issue 21's demo); the clinic keeps Congolese francs: two currencies, two exponents.
    currency: 'XOF',
    triageScale: 'FRENCH',
  },
  {
    code: 'CDF',
    name: 'Clinique du Fleuve',
    timeZone: 'Africa/Kinshasa',
    currency: 'CDF',
    triageScale: 'SATS',
  },
] as const;

export const DEMO_DEPARTMENTS: { code: string; name: string; kind: Kind; wards: number }[] = [
  { code: 'URG', name: 'Urgences', kind: 'emergency', wards: 1 },
  { code: 'MED', name: 'Médecine interne', kind: 'clinical', wards: 2 },
  { code: 'PED', name: 'Pédiatrie', kind: 'pediatrics', wards: 1 },
  { code: 'MAT', name: 'Maternité', kind: 'maternity', wards: 1 },
  { code: 'CHI', name: 'Chirurgie', kind: 'surgery', wards: 1 },
  { code: 'LAB', name: 'Laboratoire', kind: 'laboratory', wards: 0 },
  { code: 'IMG', name: 'Imagerie', kind: 'imaging', wards: 0 },
  { code: 'PHA', name: 'Pharmacie', kind: 'pharmacy', wards: 0 },
  { code: 'ADM', name: 'Administration', kind: 'administration', wards: 0 },
  { code: 'CAI', name: 'Caisse', kind: 'billing', wards: 0 },
];

interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  language: 'fr' | 'en';
  role: string;
  /** Hospital codes, with an optional department code. */
  at: { hospital: string; department?: string }[];
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'admin@greensen.test',
    firstName: 'Alice',
    lastName: 'Mukendi',
    language: 'fr',
    role: 'ADMIN',
    at: [
      { hospital: 'HGG', department: 'ADM' },
      { hospital: 'CDF', department: 'ADM' },
    ],
  },
  {
    email: 'chef@greensen.test',
    firstName: 'Joseph',
    lastName: 'Kabila Ngoy',
    language: 'fr',
    role: 'HEAD_DOCTOR',
    at: [{ hospital: 'HGG', department: 'MED' }],
  },
  {
    email: 'medecin@greensen.test',
    firstName: 'Marie',
    lastName: 'Lukusa',
    language: 'fr',
    role: 'DOCTOR',
    at: [
      { hospital: 'HGG', department: 'URG' },
      { hospital: 'CDF', department: 'MED' },
    ],
  },
  {
    email: 'medecin2@greensen.test',
    firstName: 'Patrick',
    lastName: 'Ilunga',
    language: 'fr',
    role: 'DOCTOR',
    at: [{ hospital: 'HGG', department: 'MED' }],
  },
  {
    email: 'sagefemme@greensen.test',
    firstName: 'Grâce',
    lastName: 'Mbuyi',
    language: 'fr',
    role: 'SAGE_FEMME',
    at: [{ hospital: 'HGG', department: 'MAT' }],
  },
  {
    email: 'secretaire@greensen.test',
    firstName: 'Sarah',
    lastName: 'Kalonji',
    language: 'fr',
    role: 'SECRETARY',
    at: [{ hospital: 'HGG', department: 'ADM' }],
  },
  {
    email: 'file@greensen.test',
    firstName: 'Didier',
    lastName: 'Tshibanda',
    language: 'fr',
    role: 'QUEUE_MANAGER',
    at: [{ hospital: 'HGG', department: 'URG' }],
  },
  {
    email: 'infirmier@greensen.test',
    firstName: 'Esther',
    lastName: 'Mwamba',
    language: 'fr',
    role: 'NURSE',
    at: [{ hospital: 'HGG', department: 'URG' }],
  },
  // The night nurse of the emergency ward (her handoffs wait for infirmier@) and its charge nurse (issue 20).
  {
    email: 'infirmier2@greensen.test',
    firstName: 'Grâce',
    lastName: 'Ngalula',
    language: 'fr',
    role: 'NURSE',
    at: [{ hospital: 'HGG', department: 'URG' }],
  },
  {
    email: 'cadre@greensen.test',
    firstName: 'Pascal',
    lastName: 'Kasongo',
    language: 'fr',
    role: 'CHARGE_NURSE',
    at: [{ hospital: 'HGG', department: 'URG' }],
  },
  {
    email: 'labo@greensen.test',
    firstName: 'Blaise',
    lastName: 'Kanku',
    language: 'fr',
    role: 'NURSE',
    at: [{ hospital: 'HGG', department: 'LAB' }],
  },
  {
    email: 'biologiste@greensen.test',
    firstName: 'Nadine',
    lastName: 'Mulumba',
    language: 'fr',
    role: 'DOCTOR',
    at: [{ hospital: 'HGG', department: 'LAB' }],
  },
  {
    email: 'pharmacie@greensen.test',
    firstName: 'Rachel',
    lastName: 'Kasongo',
    language: 'fr',
    // Decision 0070: a pharmacist of her own role code (was a nurse of the pharmacy).
    role: 'PHARMACIST',
    at: [{ hospital: 'HGG', department: 'PHA' }],
  },
  // The cash desk's cashier (issue 21, decision 0027): a cashier of the billing department (decision 0070).
  {
    email: 'caisse@greensen.test',
    firstName: 'Aimée',
    lastName: 'Tshilombo',
    language: 'fr',
    role: 'CASHIER',
    at: [{ hospital: 'HGG', department: 'CAI' }],
  },
  {
    email: 'medecin.cdf@greensen.test',
    firstName: 'John',
    lastName: 'Banza',
    language: 'en',
    role: 'DOCTOR',
    at: [{ hospital: 'CDF', department: 'MED' }],
  },
];

export interface SeedSummary {
  hospitals: number;
  departments: number;
  beds: number;
  accounts: { email: string; role: string; hospitals: string[] }[];
}

/** The demo: two hospitals with structure, one account per role. Runs in one transaction. */
export async function seedDemo(db: Db): Promise<SeedSummary> {
  const passwordHash = await hashSecret(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const hospitalIds = new Map<string, string>();
    const departmentIds = new Map<string, string>();
    let bedCount = 0;
    for (const h of DEMO_HOSPITALS) {
      const [row] = await tx
        .insert(hospitals)
        .values({ ...h })
        .returning({ id: hospitals.id });
      hospitalIds.set(h.code, row!.id);
      const depRows = await tx
        .insert(departments)
        .values(
          DEMO_DEPARTMENTS.map((d) => ({ hospitalId: row!.id, code: d.code, name: d.name, kind: d.kind })),
        )
        .returning({ id: departments.id, code: departments.code });
      for (const d of depRows) departmentIds.set(`${h.code}/${d.code}`, d.id);
      for (const d of DEMO_DEPARTMENTS) {
        for (let w = 1; w <= d.wards; w++) {
          const [ward] = await tx
            .insert(wards)
            .values({
              hospitalId: row!.id,
              departmentId: departmentIds.get(`${h.code}/${d.code}`)!,
              code: `${d.code}-${w}`,
              name: `${d.name} ${String.fromCharCode(64 + w)}`,
              // The bed board's guardrails (issue 37): children in paediatrics, women in maternity.
              ...(d.kind === 'pediatrics' ? { minAge: 0, maxAge: 15 } : {}),
              ...(d.kind === 'maternity' ? { sexRestriction: 'F' as const } : {}),
            })
            .returning({ id: wards.id });
          const roomRows = await tx
            .insert(rooms)
            .values(
              [1, 2, 3].map((n) => ({ hospitalId: row!.id, wardId: ward!.id, name: `${d.code}${w}0${n}` })),
            )
            .returning({ id: rooms.id });
          const bedValues = roomRows.flatMap((room, ri) =>
            [1, 2].map((n) => ({
              hospitalId: row!.id,
              roomId: room.id,
              label: `${d.code}${w}0${ri + 1}-${n}`,
              sortOrder: ri * 2 + n,
              // A bed being cleaned and one out of service in every ward, as on a real floor.
              ...(ri === 1 && n === 2 ? { status: 'cleaning' as const } : {}),
              ...(ri === 2 && n === 2
                ? { status: 'out_of_service' as const, statusReason: 'Matelas à remplacer' }
                : {}),
            })),
          );
          await tx.insert(beds).values(bedValues);
          bedCount += bedValues.length;
        }
      }
    }
    const now = new Date();
    for (const a of DEMO_ACCOUNTS) {
      const [u] = await tx
        .insert(users)
        .values({
          email: a.email,
          username: a.email.split('@')[0]!,
          firstName: a.firstName,
          lastName: a.lastName,
          passwordHash,
          languagePreference: a.language,
          emailVerifiedAt: now,
        })
        .returning({ id: users.id });
      await tx.insert(memberships).values(
        a.at.map((m) => ({
          userId: u!.id,
          hospitalId: hospitalIds.get(m.hospital)!,
          departmentId: m.department ? departmentIds.get(`${m.hospital}/${m.department}`)! : null,
          roleCode: a.role,
        })),
      );
      // The head doctor heads the department they work in (issue 15: the departments show their heads).
      if (a.role === 'HEAD_DOCTOR')
        for (const m of a.at)
          if (m.department)
            await tx
              .update(departments)
              .set({ headUserId: u!.id })
              .where(eq(departments.id, departmentIds.get(`${m.hospital}/${m.department}`)!));
    }
    await seedJourney(tx);
    await seedExams(tx);
    await seedInpatient(tx);
    await seedPharmacy(tx);
    await seedCare(tx);
    await seedBilling(tx);
    await seedAppointments(tx);
    await seedChat(tx);
    await seedNotes(tx);
    await seedStatsHistory(tx);
    await seedDhis2Mapping(tx);
    return {
      hospitals: DEMO_HOSPITALS.length,
      departments: DEMO_HOSPITALS.length * DEMO_DEPARTMENTS.length,
      beds: bedCount,
      accounts: DEMO_ACCOUNTS.map((a) => ({
        email: a.email,
        role: a.role,
        hospitals: a.at.map((m) => m.hospital),
      })),
    };
  });
}
