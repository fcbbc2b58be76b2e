import { randomUUID } from 'node:crypto';
import { CARE_PRIORITY_RANK, type TCareSchedule } from '@greensen/shared/contracts/care';
import { shiftAt } from '@greensen/shared/domain/care';
import { computeNews2 } from '@greensen/shared/domain/news2';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { nextSequenceValue } from '../../lib/sequences.js';
import { materializeOrder } from '../../modules/care/orders.service.js';
import type { Queryable } from '../client.js';
import {
  careFluids,
  careHandoffs,
  careOrders,
  carePlans,
  careVitals,
  departments,
  hospitalizations,
  hospitals,
  medicationAdministrations,
  medicationPresentations,
  patients,
  prescriptionLines,
  prescriptions,
  users,
} from '../schema/index.js';

const NURSE = 'infirmier@greensen.test';
const NIGHT_NURSE = 'infirmier2@greensen.test';
const DOCTOR = 'medecin@greensen.test';
const HOUR = 3_600_000;
const floorHour = (t: number) => new Date(Math.floor(t / HOUR) * HOUR);

/**
 * The emergency ward's nursing care at HGG (issue 20): care plans of its stays with orders and executions in the
 * nurse's shift (some late, some done), a NEWS2 ≥ 5 patient, intake/output, doses due on the MAR (one given,
 * one refused, one overdue) and the night nurse's handoffs waiting for infirmier@ to acknowledge.
 */
export async function seedCare(tx: Queryable): Promise<number> {
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  if (!h) return 0;
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [NURSE, NIGHT_NURSE, DOCTOR]));
  const who = (email: string) => people.find((p) => p.email === email)?.id;
  const nurse = who(NURSE);
  const night = who(NIGHT_NURSE);
  const doctor = who(DOCTOR);
  if (!nurse || !night || !doctor) return 0;
  const [urg] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.hospitalId, h.id), eq(departments.code, 'URG')));
  const stays = await tx
    .select({
      id: hospitalizations.id,
      patientId: hospitalizations.patientId,
      requestedAt: hospitalizations.requestedAt,
      status: hospitalizations.status,
      first: patients.firstName,
    })
    .from(hospitalizations)
    .innerJoin(patients, eq(patients.id, hospitalizations.patientId))
    .where(
      and(
        eq(hospitalizations.hospitalId, h.id),
        eq(hospitalizations.departmentId, urg!.id),
        inArray(hospitalizations.status, ['pending_bed', 'admitted']),
      ),
    );
  const now = Date.now();
  const times = ['07:00', '19:00'];
  const shift = shiftAt(new Date(now), h.timeZone, times);
  const previous = shiftAt(new Date(now), h.timeZone, times, -1);
  const plans = new Map<string, { plan: string; patient: string; stay: string }>();
  for (const s of stays) {
    const [plan] = await tx
      .insert(carePlans)
      .values({
        hospitalId: h.id,
        patientId: s.patientId,
        hospitalizationId: s.id,
        createdBy: nurse,
        createdAt: s.requestedAt,
        goals: 'Surveillance rapprochée, confort, prévention des escarres.',
      })
      .returning({ id: carePlans.id });
    plans.set(s.first, { plan: plan!.id, patient: s.patientId, stay: s.id });
  }

  const order = async (
    first: string,
    o: {
      kind: (typeof careOrders.$inferInsert)['kind'];
      title: string;
      schedule: TCareSchedule;
      startAt: Date;
      days?: number;
      signs?: string[];
      priority?: 'urgent' | 'high' | 'normal';
      instructions?: string;
    },
  ) => {
    const p = plans.get(first);
    if (!p) return null;
    const endAt =
      o.schedule.kind === 'once'
        ? o.startAt
        : o.days
          ? new Date(o.startAt.getTime() + o.days * 24 * HOUR)
          : null;
    const [row] = await tx
      .insert(careOrders)
      .values({
        hospitalId: h.id,
        planId: p.plan,
        kind: o.kind,
        title: o.title,
        instructions: o.instructions ?? null,
        signs: o.signs ?? [],
        priority: o.priority ?? 'normal',
        schedule: o.schedule,
        startAt: o.startAt,
        endAt,
        orderedBy: o.kind === 'positioning' ? nurse : doctor,
        orderedAt: new Date(Math.min(o.startAt.getTime(), now - HOUR)),
      })
      .returning({ id: careOrders.id });
    await materializeOrder(
      tx,
      {
        id: row!.id,
        hospitalId: h.id,
        planId: p.plan,
        patientId: p.patient,
        schedule: o.schedule,
        startAt: o.startAt,
        endAt,
        priority: CARE_PRIORITY_RANK[o.priority ?? 'normal'],
        materializedUntil: null,
      },
      h.timeZone,
      new Date(now + 48 * HOUR),
    );
    return row!.id;
  };

  for (const s of stays) {
    const first = s.first;
    // From the stay's arrival (at most 8 hours before the shift), on the hour.
    const vitalsStart = floorHour(
      Math.max(shift.start.getTime() - 8 * HOUR, new Date(s.requestedAt).getTime()),
    );
    await order(first, {
      kind: 'vitals',
      title: 'Surveillance des constantes',
      signs: [
        'temperature',
        'heart_rate',
        'respiratory_rate',
        'blood_pressure',
        'spo2',
        'consciousness',
        'pain',
      ],
      schedule: { kind: 'every_hours', hours: 4 },
      startAt: vitalsStart,
      days: 5,
    });
  }
  await order('Bernadette', {
    kind: 'dressing',
    title: 'Pansement du cathéter veineux périphérique',
    schedule: { kind: 'once' },
    startAt: new Date(now - 90 * 60_000),
    priority: 'high',
  });
  await order('Bernadette', {
    kind: 'iv_line',
    title: 'Ceftriaxone 1 g IV : vérifier la voie veineuse',
    schedule: { kind: 'every_hours', hours: 8 },
    startAt: new Date(shift.start.getTime() + HOUR),
    days: 5,
  });
  await order('Bernadette', {
    kind: 'positioning',
    title: 'Demi-assise, changement d’appui',
    schedule: { kind: 'every_hours', hours: 3 },
    startAt: shift.start,
    days: 3,
  });
  await order('Didier', {
    kind: 'specimen',
    title: 'Goutte épaisse de contrôle',
    schedule: { kind: 'once' },
    startAt: new Date(now + HOUR),
    priority: 'urgent',
    instructions: 'Au pic fébrile si possible.',
  });
  // Three quarters of an hour late whatever the time of day the demo is made (a fixed time of day would fall in
  // another shift, or be done already, at some hours).
  await order('Didier', {
    kind: 'feeding',
    title: 'Hydratation orale fractionnée',
    schedule: { kind: 'once' },
    startAt: new Date(now - 45 * 60_000),
  });

  // What the shift has done so far: the work more than an hour old is done (by the night nurse before the
  // shift, by the nurse since), except the catheter dressing and one round of vitals, left late.
  await tx.execute(sql`update care_executions e set status = 'done',
      done_by = case when e.scheduled_at < ${shift.start.toISOString()} then ${night}::uuid else ${nurse}::uuid end,
      done_at = e.scheduled_at + interval '10 minutes', recorded_at = e.scheduled_at + interval '12 minutes'
    from care_orders o where o.id = e.order_id and e.hospital_id = ${h.id}
      and e.scheduled_at < ${new Date(now - HOUR).toISOString()} and o.kind <> 'dressing'
      and not (o.kind = 'vitals' and e.plan_id = ${plans.get('Didier')?.plan ?? null}
        and e.scheduled_at >= ${shift.start.toISOString()})`);
  // The shift's open work is the nurse's; the positioning is left for whoever takes it.
  await tx.execute(sql`update care_executions e set assignee_id = ${nurse}, assigned_by = ${doctor},
      assigned_at = ${shift.start.toISOString()}
    from care_orders o where o.id = e.order_id and e.hospital_id = ${h.id} and e.status = 'scheduled'
      and e.scheduled_at < ${shift.end.toISOString()} and o.kind <> 'positioning'`);

  // Vitals: Bernadette crosses the NEWS2 threshold this afternoon; Didier settles.
  const sets: {
    first: string;
    at: number;
    by: string;
    v: Parameters<typeof computeNews2>[0] & Record<string, unknown>;
  }[] = [
    {
      first: 'Bernadette',
      at: now - 5 * HOUR,
      by: night,
      v: {
        temperature: 38.1,
        heart_rate: 96,
        respiratory_rate: 22,
        systolic_bp: 130,
        diastolic_bp: 78,
        spo2: 94,
        on_oxygen: true,
        avpu: 'A',
        pain: 3,
      },
    },
    {
      first: 'Bernadette',
      at: now - 40 * 60_000,
      by: nurse,
      v: {
        temperature: 38.6,
        heart_rate: 104,
        respiratory_rate: 26,
        systolic_bp: 128,
        diastolic_bp: 76,
        spo2: 91,
        on_oxygen: true,
        avpu: 'A',
        pain: 4,
      },
    },
    {
      first: 'Didier',
      at: now - 9 * HOUR,
      by: night,
      v: {
        temperature: 39.4,
        heart_rate: 118,
        respiratory_rate: 22,
        systolic_bp: 102,
        diastolic_bp: 64,
        spo2: 96,
        on_oxygen: false,
        avpu: 'A',
        pain: 5,
      },
    },
    {
      first: 'Didier',
      at: now - 2 * HOUR,
      by: nurse,
      v: {
        temperature: 37.9,
        heart_rate: 96,
        respiratory_rate: 18,
        systolic_bp: 112,
        diastolic_bp: 70,
        spo2: 97,
        on_oxygen: false,
        avpu: 'A',
        pain: 2,
        weight: 68,
      },
    },
  ];
  for (const s of sets) {
    const p = plans.get(s.first);
    if (!p) continue;
    const news2 = computeNews2(s.v);
    await tx.insert(careVitals).values({
      hospitalId: h.id,
      planId: p.plan,
      patientId: p.patient,
      recordedAt: new Date(s.at),
      recordedBy: s.by,
      temperature: s.v.temperature ?? null,
      heartRate: s.v.heart_rate ?? null,
      respiratoryRate: s.v.respiratory_rate ?? null,
      systolicBp: s.v.systolic_bp ?? null,
      diastolicBp: (s.v.diastolic_bp as number | undefined) ?? null,
      spo2: s.v.spo2 ?? null,
      onOxygen: s.v.on_oxygen === true,
      oxygenFlow: s.v.on_oxygen ? 2 : null,
      avpu: s.v.avpu ?? null,
      pain: (s.v.pain as number | undefined) ?? null,
      weight: (s.v.weight as number | undefined) ?? null,
      news2Score: news2.score,
      news2: { ...news2 },
      escalatedTo: news2.escalation === 'none' ? [] : [doctor],
    });
  }
  const didier = plans.get('Didier');
  if (didier) {
    await tx.insert(careFluids).values([
      {
        hospitalId: h.id,
        planId: didier.plan,
        direction: 'intake',
        kind: 'iv',
        volumeMl: 1000,
        recordedAt: new Date(now - 6 * HOUR),
        recordedBy: night,
      },
      {
        hospitalId: h.id,
        planId: didier.plan,
        direction: 'intake',
        kind: 'oral',
        volumeMl: 400,
        recordedAt: new Date(now - 3 * HOUR),
        recordedBy: nurse,
      },
      {
        hospitalId: h.id,
        planId: didier.plan,
        direction: 'output',
        kind: 'urine',
        volumeMl: 650,
        recordedAt: new Date(now - 2 * HOUR),
        recordedBy: nurse,
      },
      {
        hospitalId: h.id,
        planId: didier.plan,
        direction: 'output',
        kind: 'vomit',
        volumeMl: 150,
        recordedAt: new Date(now - 8 * HOUR),
        recordedBy: night,
      },
    ]);
    await doses(
      tx,
      h.id,
      h.code,
      didier,
      doctor,
      urg!.id,
      nurse,
      night,
      demoDoseStarts(now, shift.start),
      shift.start,
    );
  }

  // The night nurse's handoffs of the previous shift, waiting for the day nurse.
  const sbar: Record<string, [string, string, string, string]> = {
    Bernadette: [
      'Mme Ilunga, 68 ans, pneumopathie hypoxémiante, sous O2 2 L/min.',
      'Allergie à la pénicilline. Ceftriaxone IV depuis hier.',
      'Fébrile à 38,1 °C, SpO2 94 % sous O2, NEWS2 5 à 14 h. Bonne diurèse.',
      'Surveiller la SpO2 et la FR toutes les 4 h ; appeler le médecin si NEWS2 ≥ 5.',
    ],
    Didier: [
      'M. Mwamba, 41 ans, paludisme grave, artésunate IV.',
      'Vomissements à l’admission, perfusion de Ringer lactate.',
      'Fièvre à 39,4 °C en début de nuit, paracétamol donné. Vomissement 150 mL.',
      'Goutte épaisse de contrôle ce jour ; encourager l’hydratation orale.',
    ],
  };
  for (const [first, [situation, background, assessment, recommendation]] of Object.entries(sbar)) {
    const p = plans.get(first);
    if (!p) continue;
    await tx.insert(careHandoffs).values({
      hospitalId: h.id,
      planId: p.plan,
      patientId: p.patient,
      shiftStart: previous.start,
      shiftEnd: previous.end,
      shiftLabel: previous.label,
      situation,
      background,
      assessment,
      recommendation,
      changes: [],
      authorId: night,
      writtenAt: new Date(previous.end.getTime() - 20 * 60_000),
    });
  }
  return plans.size;
}

/**
 * When the demo's two prescriptions for Didier start, so that at any hour the nurse's current shift shows:
 * metronidazole (every 8 hours) with its first dose given and the second overdue — at the start of the shift, or
 * an hour before when the shift began less than an hour ago — and the third due in the shift; paracetamol (every
 * 6 hours) with its first dose given, the second refused and the third on the current hour (due, or overdue
 * after the grace), always in the shift.
 */
export function demoDoseStarts(now: number, shiftStart: Date): { metronidazole: Date; paracetamol: Date } {
  const overdue = Math.min(shiftStart.getTime(), floorHour(now - HOUR).getTime());
  return {
    metronidazole: new Date(overdue - 8 * HOUR),
    paracetamol: new Date(floorHour(now).getTime() - 12 * HOUR),
  };
}

/**
 * A stay prescription for Didier: paracetamol every 6 hours (the first dose given by the night nurse, the
 * second refused, the next due) and metronidazole every 8 hours (the first given, the second
 * overdue).
 */
async function doses(
  tx: Queryable,
  hospitalId: string,
  hospitalCode: string,
  p: { plan: string; patient: string; stay: string },
  doctor: string,
  department: string,
  nurse: string,
  night: string,
  starts: { metronidazole: Date; paracetamol: Date },
  shiftStart: Date,
) {
  const now = Date.now();
  const codes = ['paracetamol:tablet:oral:500 mg', 'metronidazole:tablet:oral:500 mg'];
  const pres = await tx
    .select({
      id: medicationPresentations.id,
      code: medicationPresentations.code,
      med: medicationPresentations.medicationId,
    })
    .from(medicationPresentations)
    .where(inArray(medicationPresentations.code, codes));
  if (pres.length < 2) return;
  const year = new Date().getUTCFullYear();
  const lines = [
    { code: codes[0]!, every: 6, signed: starts.paracetamol, dose: 2, unit: 'comprimé', qty: 16 },
    {
      code: codes[1]!,
      every: 8,
      signed: starts.metronidazole,
      dose: 1,
      unit: 'comprimé',
      qty: 21,
    },
  ];
  for (const l of lines) {
    const n = await nextSequenceValue(tx, hospitalId, `prescription:${year}`);
    const [rx] = await tx
      .insert(prescriptions)
      .values({
        hospitalId,
        number: `ORD-${hospitalCode}-${year}-${String(n).padStart(6, '0')}`,
        patientId: p.patient,
        prescriberId: doctor,
        departmentId: department,
        hospitalizationId: p.stay,
        status: 'signed',
        version: 2,
        signedAt: l.signed,
        createdAt: new Date(l.signed.getTime() - 600_000),
      })
      .returning({ id: prescriptions.id });
    const presentation = pres.find((x) => x.code === l.code)!;
    const [line] = await tx
      .insert(prescriptionLines)
      .values({
        prescriptionId: rx!.id,
        position: 0,
        medicationId: presentation.med,
        presentationId: presentation.id,
        dose: l.dose,
        doseUnit: l.unit,
        route: 'oral',
        frequency: { kind: 'every_hours', hours: l.every },
        durationDays: 5,
        quantity: l.qty,
      })
      .returning({ id: prescriptionLines.id });
    // The first dose, at the signature (a full hour), given by the night nurse.
    const first = l.signed;
    await tx.insert(medicationAdministrations).values({
      hospitalId,
      planId: p.plan,
      patientId: p.patient,
      prescriptionLineId: line!.id,
      scheduledAt: first,
      outcome: 'given',
      givenAt: new Date(first.getTime() + 10 * 60_000),
      dose: l.dose,
      doseUnit: l.unit,
      route: 'oral',
      idempotencyKey: randomUUID(),
      recordedBy: night,
      recordedAt: new Date(first.getTime() + 12 * 60_000),
    });
    // Paracetamol's second dose was refused.
    if (l.every === 6)
      await tx.insert(medicationAdministrations).values({
        hospitalId,
        planId: p.plan,
        patientId: p.patient,
        prescriptionLineId: line!.id,
        scheduledAt: new Date(first.getTime() + 6 * HOUR),
        outcome: 'not_given',
        reason: 'refused',
        note: 'Nauséeux, refuse les comprimés ; médecin prévenu.',
        idempotencyKey: randomUUID(),
        recordedBy: first.getTime() + 6 * HOUR < shiftStart.getTime() ? night : nurse,
        recordedAt: new Date(Math.min(first.getTime() + 6 * HOUR + 15 * 60_000, now - 60_000)),
      });
  }
}
