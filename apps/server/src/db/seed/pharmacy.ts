import { and, eq, inArray, sql } from 'drizzle-orm';
import { nextSequenceValue } from '../../lib/sequences.js';
import { ensureMedicationReference } from '../../modules/pharmacy/medication-reference.js';
import type { Queryable } from '../client.js';
import {
  departments,
  hospitals,
  medicationPresentations,
  medicationSafetyOverrides,
  prescriptionLines,
  prescriptions,
  stockItems,
  stockLots,
  stockMovements,
  users,
} from '../schema/index.js';

/**
 * The demo pharmacy of HGG (issue 18): lots of the common medicines with realistic numbers and expiry dates (one
 * expiring soon, one expired, one medicine below its reorder level, one out of stock), the receipts in the
 * ledger, and prescriptions of journey patients waiting at the pharmacy (one partly dispensed).
 */

export const PHARMACIST = 'pharmacie@greensen.test';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const daysAgo = (days: number, hour = 10) => {
  const d = new Date(Date.now() - days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
};

interface DemoLot {
  presentation: string;
  lot: string;
  /** Days from today (negative: expired). */
  expires: number;
  quantity: number;
  cost: number;
  /** Days ago it was received. */
  received: number;
}

/** Presentation codes of the shipped reference (`medication-reference.ts`). */
const P = {
  al: 'artemether-lumefantrine:tablet:oral:20 mg/120 mg',
  alPaed: 'artemether-lumefantrine:dispersible_tablet:oral:20 mg/120 mg',
  asaq: 'artesunate-amodiaquine:tablet:oral:100 mg/270 mg',
  artesunate: 'artesunate:injection:iv:60 mg/vial',
  quinine: 'quinine:injection:iv:300 mg/ml (2 ml)',
  para: 'paracetamol:tablet:oral:500 mg',
  paraSyrup: 'paracetamol:syrup:oral:120 mg/5 ml (100 ml)',
  amox: 'amoxicillin:capsule:oral:500 mg',
  amoxClav: 'amoxicillin-clavulanic-acid:tablet:oral:500 mg/125 mg',
  ceftriaxone: 'ceftriaxone:injection:iv:1 g',
  cotri: 'cotrimoxazole:tablet:oral:400 mg/80 mg',
  metro: 'metronidazole:tablet:oral:500 mg',
  ors: 'ors:powder_oral:oral:20.5 g/l (sachet pour 1 l)',
  zinc: 'zinc:dispersible_tablet:oral:20 mg',
  ringer: 'ringer-lactate:infusion:iv:500 ml',
  saline: 'sodium-chloride:infusion:iv:0.9 % (500 ml)',
  glucose: 'glucose:infusion:iv:5 % (500 ml)',
  oxytocin: 'oxytocin:injection:im:10 ui/ml',
  misoprostol: 'misoprostol:tablet:oral:200 µg',
  mgso4: 'magnesium-sulfate:injection:iv:500 mg/ml (10 ml)',
  ibuprofen: 'ibuprofen:tablet:oral:400 mg',
  diazepam: 'diazepam:injection:iv:5 mg/ml (2 ml)',
  tld: 'tenofovir-lamivudine-dolutegravir:tablet:oral:300 mg/300 mg/50 mg',
  metformin: 'metformin:tablet:oral:500 mg',
} as const;

const LOTS: DemoLot[] = [
  // Artemether-lumefantrine: an old lot expiring in 40 days (first out), a recent one.
  { presentation: P.al, lot: 'AL2406-117', expires: 40, quantity: 72, cost: 95, received: 160 },
  { presentation: P.al, lot: 'AL2503-042', expires: 420, quantity: 480, cost: 90, received: 20 },
  { presentation: P.alPaed, lot: 'ALD2502-009', expires: 300, quantity: 180, cost: 85, received: 20 },
  { presentation: P.asaq, lot: 'ASQ2501-330', expires: 260, quantity: 150, cost: 110, received: 45 },
  { presentation: P.artesunate, lot: 'ART2412-051', expires: 330, quantity: 60, cost: 2400, received: 45 },
  { presentation: P.quinine, lot: 'QNI2409-778', expires: 190, quantity: 40, cost: 650, received: 90 },
  { presentation: P.para, lot: 'PCM2411-2031', expires: 560, quantity: 2000, cost: 15, received: 60 },
  { presentation: P.paraSyrup, lot: 'PCS2410-118', expires: 240, quantity: 45, cost: 1200, received: 60 },
  // Amoxicillin: an expired lot still on the shelf (to write off), a good one.
  { presentation: P.amox, lot: 'AMX2307-661', expires: -18, quantity: 42, cost: 40, received: 400 },
  { presentation: P.amox, lot: 'AMX2412-905', expires: 380, quantity: 500, cost: 42, received: 30 },
  { presentation: P.amoxClav, lot: 'AMC2501-214', expires: 350, quantity: 140, cost: 160, received: 30 },
  // Ceftriaxone: below its reorder level (100).
  { presentation: P.ceftriaxone, lot: 'CRO2410-377', expires: 270, quantity: 35, cost: 900, received: 75 },
  { presentation: P.cotri, lot: 'CTX2411-560', expires: 410, quantity: 400, cost: 12, received: 75 },
  { presentation: P.metro, lot: 'MTZ2409-142', expires: 300, quantity: 250, cost: 18, received: 75 },
  { presentation: P.ors, lot: 'SRO2410-088', expires: 600, quantity: 300, cost: 150, received: 75 },
  { presentation: P.zinc, lot: 'ZNC2410-019', expires: 520, quantity: 300, cost: 25, received: 75 },
  { presentation: P.ringer, lot: 'RL2501-4410', expires: 700, quantity: 120, cost: 1800, received: 30 },
  { presentation: P.saline, lot: 'NS2501-3921', expires: 700, quantity: 150, cost: 1500, received: 30 },
  { presentation: P.glucose, lot: 'G5-2412-2280', expires: 640, quantity: 80, cost: 1600, received: 30 },
  { presentation: P.oxytocin, lot: 'OXY2501-066', expires: 200, quantity: 90, cost: 700, received: 20 },
  { presentation: P.misoprostol, lot: 'MSP2412-031', expires: 450, quantity: 120, cost: 300, received: 20 },
  { presentation: P.mgso4, lot: 'MGS2411-015', expires: 500, quantity: 40, cost: 1100, received: 20 },
  { presentation: P.ibuprofen, lot: 'IBU2410-702', expires: 390, quantity: 300, cost: 20, received: 60 },
  { presentation: P.tld, lot: 'TLD2502-118', expires: 480, quantity: 900, cost: 60, received: 20 },
  { presentation: P.metformin, lot: 'MET2411-350', expires: 520, quantity: 600, cost: 10, received: 60 },
  // Diazepam: received, then broken in transport: out of stock.
  { presentation: P.diazepam, lot: 'DZP2409-020', expires: 400, quantity: 20, cost: 500, received: 90 },
];

const REORDER: [string, number][] = [
  [P.al, 200],
  [P.ceftriaxone, 100],
  [P.para, 500],
  [P.diazepam, 10],
  [P.ors, 100],
];

interface Line {
  presentation: string;
  dose: number;
  doseUnit: string;
  route: 'oral' | 'iv' | 'im';
  frequency: Record<string, unknown>;
  days: number | null;
  quantity: number;
  instructions: string;
  dispensed?: number;
  /** The prescriber signed it over a blocking allergy alert with this reason (issue 34). */
  allergyOverride?: string;
}

export async function seedPharmacy(tx: Queryable): Promise<{ lots: number; prescriptions: number }> {
  await ensureMedicationReference(tx);
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  if (!h) return { lots: 0, prescriptions: 0 };
  const [pha] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.hospitalId, h.id), eq(departments.code, 'PHA')));
  const [pharmacist] = await tx.select({ id: users.id }).from(users).where(eq(users.email, PHARMACIST));
  if (!pha || !pharmacist) return { lots: 0, prescriptions: 0 };
  const codes = Object.values(P);
  const pres = await tx
    .select({
      id: medicationPresentations.id,
      code: medicationPresentations.code,
      med: medicationPresentations.medicationId,
    })
    .from(medicationPresentations)
    .where(inArray(medicationPresentations.code, codes));
  const presentation = (code: string) => {
    const p = pres.find((r) => r.code === code);
    if (!p) throw new Error(`demo pharmacy: no presentation ${code}`);
    return p;
  };

  const lotIds = new Map<string, string>();
  for (const l of LOTS) {
    const [lot] = await tx
      .insert(stockLots)
      .values({
        hospitalId: h.id,
        pharmacyId: pha.id,
        presentationId: presentation(l.presentation).id,
        lotNumber: l.lot,
        expiryDate: day(l.expires),
        unitCost: l.cost,
        createdAt: daysAgo(l.received),
      })
      .returning({ id: stockLots.id });
    lotIds.set(l.lot, lot!.id);
    await tx.insert(stockMovements).values({
      hospitalId: h.id,
      pharmacyId: pha.id,
      lotId: lot!.id,
      presentationId: presentation(l.presentation).id,
      kind: 'receipt',
      quantity: l.quantity,
      reference: `BL-CAMEMO-${String(1000 + l.received).padStart(5, '0')}`,
      reason: 'CAMEMO (centrale d’achat)',
      byId: pharmacist.id,
      at: daysAgo(l.received),
    });
  }
  await tx.insert(stockMovements).values({
    hospitalId: h.id,
    pharmacyId: pha.id,
    lotId: lotIds.get('DZP2409-020')!,
    presentationId: presentation(P.diazepam).id,
    kind: 'adjustment',
    quantity: -20,
    reason: 'Carton d’ampoules cassé pendant le transport',
    byId: pharmacist.id,
    at: daysAgo(12),
  });
  for (const [code, level] of REORDER)
    await tx
      .update(stockItems)
      .set({ reorderLevel: level })
      .where(and(eq(stockItems.pharmacyId, pha.id), eq(stockItems.presentationId, presentation(code).id)));

  // Prescriptions of journey patients: from their consultations, and for the inpatient allergic to penicillin.
  const consults = await tx.execute<{
    id: string;
    patient_id: string;
    doctor_id: string;
    department_id: string;
  }>(
    sql`select c.id, c.patient_id, c.doctor_id, c.department_id from consultations c
      where c.hospital_id = ${h.id} and c.status <> 'cancelled' order by c.started_at, c.id limit 3`,
  );
  const stay = await tx.execute<{ id: string; patient_id: string; doctor_id: string; department_id: string }>(
    sql`select s.id, s.patient_id, s.doctor_id, s.department_id from hospitalizations s
      join patients p on p.id = s.patient_id
      where s.hospital_id = ${h.id} and s.status = 'admitted' and 'Pénicilline' = any(p.allergies) limit 1`,
  );
  const tds = { kind: 'times_per_day', times: 3 };
  const plans: { origin: (typeof consults.rows)[number]; stay: boolean; lines: Line[]; hoursAgo: number }[] =
    [];
  const [c1, c2, c3] = consults.rows;
  if (c1)
    plans.push({
      origin: c1,
      stay: false,
      hoursAgo: 3,
      lines: [
        {
          presentation: P.al,
          dose: 4,
          doseUnit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 2 },
          days: 3,
          quantity: 24,
          instructions: 'Prendre avec un repas ou du lait. Deuxième prise 8 h après la première.',
        },
        {
          presentation: P.para,
          dose: 1,
          doseUnit: 'comprimé',
          route: 'oral',
          frequency: tds,
          days: 3,
          quantity: 9,
          instructions: 'Si fièvre ou douleur. Pas plus de 3 comprimés par jour.',
        },
      ],
    });
  if (c2)
    plans.push({
      origin: c2,
      stay: false,
      hoursAgo: 2,
      lines: [
        {
          presentation: P.amox,
          dose: 1,
          doseUnit: 'gélule',
          route: 'oral',
          frequency: tds,
          days: 7,
          quantity: 21,
          instructions: 'Toutes les 8 heures, jusqu’à la fin de la boîte.',
        },
        {
          presentation: P.ors,
          dose: 1,
          doseUnit: 'sachet',
          route: 'oral',
          frequency: { kind: 'as_needed', max_per_day: 3 },
          days: 2,
          quantity: 6,
          instructions: 'Un sachet dans 1 L d’eau potable, à boire dans la journée.',
        },
      ],
    });
  if (c3)
    plans.push({
      origin: c3,
      stay: false,
      hoursAgo: 26,
      lines: [
        {
          presentation: P.cotri,
          dose: 2,
          doseUnit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 2 },
          days: 5,
          quantity: 20,
          instructions: 'Matin et soir, avec beaucoup d’eau.',
          dispensed: 10,
        },
      ],
    });
  const s = stay.rows[0];
  if (s)
    plans.push({
      origin: s,
      stay: true,
      hoursAgo: 1,
      lines: [
        {
          presentation: P.ceftriaxone,
          dose: 1,
          doseUnit: 'g',
          route: 'iv',
          frequency: { kind: 'times_per_day', times: 1 },
          days: 5,
          quantity: 5,
          instructions: 'IV lente sur 5 min, dans 10 mL d’eau pour préparations injectables.',
        },
        {
          // Issue 34: an amoxicillin line for the penicillin-allergic patient, signed over the blocking alert
          // with the prescriber's reason, waiting at the pharmacy (the pharmacist sees the alert and the reason).
          presentation: P.amox,
          dose: 1,
          doseUnit: 'gélule',
          route: 'oral',
          frequency: tds,
          days: 5,
          quantity: 15,
          instructions: 'Relais oral prévu après 48 h de ceftriaxone.',
          allergyOverride:
            'Allergie ancienne (éruption légère en 2015, non documentée) ; pas d’alternative orale disponible, surveillance rapprochée.',
        },
      ],
    });

  const year = new Date().getUTCFullYear();
  for (const plan of plans) {
    const n = await nextSequenceValue(tx, h.id, `prescription:${year}`);
    const signedAt = new Date(Date.now() - plan.hoursAgo * 3_600_000);
    const partly = plan.lines.some((l) => l.dispensed);
    const [rx] = await tx
      .insert(prescriptions)
      .values({
        hospitalId: h.id,
        number: `ORD-${h.code}-${year}-${String(n).padStart(6, '0')}`,
        patientId: plan.origin.patient_id,
        prescriberId: plan.origin.doctor_id,
        departmentId: plan.origin.department_id,
        consultationId: plan.stay ? null : plan.origin.id,
        hospitalizationId: plan.stay ? plan.origin.id : null,
        status: partly ? 'partially_dispensed' : 'signed',
        version: 2,
        signedAt,
        createdAt: new Date(signedAt.getTime() - 600_000),
      })
      .returning({ id: prescriptions.id, number: prescriptions.number });
    for (const [i, l] of plan.lines.entries()) {
      const p = presentation(l.presentation);
      const [line] = await tx
        .insert(prescriptionLines)
        .values({
          prescriptionId: rx!.id,
          position: i + 1,
          medicationId: p.med,
          presentationId: p.id,
          dose: l.dose,
          doseUnit: l.doseUnit,
          route: l.route,
          frequency: l.frequency,
          durationDays: l.days,
          quantity: l.quantity,
          dispensedQuantity: l.dispensed ?? 0,
          instructions: l.instructions,
          allergyOverrideReason: l.allergyOverride ?? null,
        })
        .returning({ id: prescriptionLines.id });
      if (l.allergyOverride)
        await tx.insert(medicationSafetyOverrides).values({
          hospitalId: h.id,
          prescriptionId: rx!.id,
          prescriptionLineId: line!.id,
          code: 'allergy_class',
          stage: 'prescribe',
          reason: l.allergyOverride,
          createdBy: plan.origin.doctor_id,
          createdAt: signedAt,
        });
      if (l.dispensed)
        await tx.insert(stockMovements).values({
          hospitalId: h.id,
          pharmacyId: pha.id,
          lotId: lotIds.get(LOTS.find((x) => x.presentation === l.presentation)!.lot)!,
          presentationId: p.id,
          kind: 'dispense',
          quantity: -l.dispensed,
          reference: rx!.number,
          prescriptionId: rx!.id,
          prescriptionLineId: line!.id,
          byId: pharmacist.id,
          at: new Date(signedAt.getTime() + 1_800_000),
        });
    }
  }
  return { lots: LOTS.length, prescriptions: plans.length };
}
