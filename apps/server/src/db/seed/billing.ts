import { documentNumber, NUMBER_PREFIXES } from '@greensen/shared/contracts/billing';
import type { ActCategory, PayerCategory } from '@greensen/shared/contracts/medical-acts';
import { currencyExponent, lineGross, splitShare } from '@greensen/shared/domain/money';
import { and, eq, sql } from 'drizzle-orm';
import { hospitalToday } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import type { Queryable } from '../client.js';
import {
  actTariffs,
  cashSessions,
  departments,
  exchangeRates,
  hospitals,
  invoiceLines,
  invoices,
  medicalActs,
  patientCoverages,
  payerRules,
  payers,
  payments,
  performedActs,
  receipts,
  users,
} from '../schema/index.js';

/**
 * The demo's cash desk of HGG (issue 21, decision 0027): a catalogue of about 40 acts with FCFA (XOF) tariffs for
 * private, insured, staff and indigent patients, an insurer at 80 % with ceilings and a free-care programme for
 * malaria in children under five, an insured patient's visit invoiced (consultation, malaria test, medicines),
 * issued and partly paid in cash and by MTN MoMo, another insured visit ready to invoice, and the cashier's open
 * session.
 */

export const CASHIER = 'caisse@greensen.test';

interface DemoAct {
  code: string;
  fr: string;
  en: string;
  category: ActCategory;
  /** Private price in F CFA; insured the same, staff half, indigent a quarter (rounded to 50 F). */
  price: number;
  auto?: 'consultation' | 'bed_day';
  exam?: string;
  presentation?: string;
}

const ACTS: DemoAct[] = [
  {
    code: 'CONS-GEN',
    fr: 'Consultation de médecine générale',
    en: 'General practice consultation',
    category: 'consultation',
    price: 5000,
    auto: 'consultation',
  },
  {
    code: 'CONS-SPE',
    fr: 'Consultation de spécialiste',
    en: 'Specialist consultation',
    category: 'consultation',
    price: 10_000,
  },
  {
    code: 'CONS-PED',
    fr: 'Consultation de pédiatrie',
    en: 'Paediatric consultation',
    category: 'consultation',
    price: 5000,
  },
  {
    code: 'CONS-CPN',
    fr: 'Consultation prénatale',
    en: 'Antenatal consultation',
    category: 'consultation',
    price: 3000,
  },
  {
    code: 'CONS-URG',
    fr: "Consultation d'urgence (nuit, week-end)",
    en: 'Emergency consultation (night, weekend)',
    category: 'consultation',
    price: 7500,
  },
  {
    code: 'LIT-JOUR',
    fr: "Journée d'hospitalisation (salle commune)",
    en: 'Bed-day (general ward)',
    category: 'bed_day',
    price: 10_000,
    auto: 'bed_day',
  },
  {
    code: 'LIT-PRIVE',
    fr: "Journée d'hospitalisation (chambre individuelle)",
    en: 'Bed-day (private room)',
    category: 'bed_day',
    price: 25_000,
  },
  {
    code: 'LAB-TDR',
    fr: 'TDR paludisme',
    en: 'Malaria RDT',
    category: 'laboratory',
    price: 1500,
    exam: 'TDR-PALU',
  },
  {
    code: 'LAB-GE',
    fr: 'Goutte épaisse',
    en: 'Thick blood smear',
    category: 'laboratory',
    price: 2000,
    exam: 'GE',
  },
  {
    code: 'LAB-NFS',
    fr: 'Numération formule sanguine',
    en: 'Full blood count',
    category: 'laboratory',
    price: 5000,
    exam: 'NFS',
  },
  { code: 'LAB-GLY', fr: 'Glycémie', en: 'Blood glucose', category: 'laboratory', price: 2000, exam: 'GLY' },
  {
    code: 'LAB-CREA',
    fr: 'Créatininémie',
    en: 'Serum creatinine',
    category: 'laboratory',
    price: 3500,
    exam: 'CREA',
  },
  {
    code: 'LAB-CRP',
    fr: 'Protéine C réactive',
    en: 'C-reactive protein',
    category: 'laboratory',
    price: 5000,
    exam: 'CRP',
  },
  {
    code: 'LAB-GSRH',
    fr: 'Groupe sanguin et rhésus',
    en: 'Blood group and rhesus',
    category: 'laboratory',
    price: 3000,
    exam: 'GS-RH',
  },
  { code: 'LAB-VIH', fr: 'Sérologie VIH', en: 'HIV serology', category: 'laboratory', price: 0, exam: 'VIH' },
  {
    code: 'LAB-WIDAL',
    fr: 'Sérodiagnostic de Widal',
    en: 'Widal test',
    category: 'laboratory',
    price: 4000,
    exam: 'WIDAL',
  },
  {
    code: 'LAB-BU',
    fr: 'Bandelette urinaire',
    en: 'Urine dipstick',
    category: 'laboratory',
    price: 1500,
    exam: 'BU',
  },
  {
    code: 'LAB-BHCG',
    fr: 'Test de grossesse (β-hCG)',
    en: 'Pregnancy test (β-hCG)',
    category: 'laboratory',
    price: 3000,
    exam: 'BHCG',
  },
  {
    code: 'IMG-RXT',
    fr: 'Radiographie du thorax',
    en: 'Chest X-ray',
    category: 'imaging',
    price: 15_000,
    exam: 'RX-THORAX',
  },
  {
    code: 'IMG-RXM',
    fr: "Radiographie d'un membre",
    en: 'Limb X-ray',
    category: 'imaging',
    price: 12_000,
    exam: 'RX-MEMBRE',
  },
  {
    code: 'IMG-ECHA',
    fr: 'Échographie abdominale',
    en: 'Abdominal ultrasound',
    category: 'imaging',
    price: 20_000,
    exam: 'ECHO-ABDO',
  },
  {
    code: 'IMG-ECHO',
    fr: 'Échographie obstétricale',
    en: 'Obstetric ultrasound',
    category: 'imaging',
    price: 15_000,
    exam: 'ECHO-OBST',
  },
  {
    code: 'IMG-TDM',
    fr: 'Scanner cérébral',
    en: 'Head CT scan',
    category: 'imaging',
    price: 75_000,
    exam: 'TDM-CRANE',
  },
  { code: 'SOIN-PANS', fr: 'Pansement simple', en: 'Simple dressing', category: 'nursing', price: 2000 },
  { code: 'SOIN-INJ', fr: 'Injection (IM, IV)', en: 'Injection (IM, IV)', category: 'nursing', price: 500 },
  { code: 'SOIN-PERF', fr: 'Pose de perfusion', en: 'IV line placement', category: 'nursing', price: 2500 },
  {
    code: 'SOIN-SOND',
    fr: 'Sondage urinaire',
    en: 'Urinary catheterisation',
    category: 'nursing',
    price: 3000,
  },
  {
    code: 'PROC-SUT',
    fr: 'Suture de plaie (moins de 5 cm)',
    en: 'Wound suture (under 5 cm)',
    category: 'procedure',
    price: 7500,
  },
  { code: 'PROC-PLA', fr: 'Plâtre', en: 'Plaster cast', category: 'procedure', price: 15_000 },
  {
    code: 'PROC-ECG',
    fr: 'Électrocardiogramme',
    en: 'Electrocardiogram',
    category: 'procedure',
    price: 7500,
  },
  { code: 'PROC-ABC', fr: "Incision d'abcès", en: 'Abscess incision', category: 'procedure', price: 10_000 },
  { code: 'CHIR-APP', fr: 'Appendicectomie', en: 'Appendectomy', category: 'surgery', price: 250_000 },
  {
    code: 'CHIR-HER',
    fr: 'Cure de hernie inguinale',
    en: 'Inguinal hernia repair',
    category: 'surgery',
    price: 200_000,
  },
  { code: 'CHIR-CES', fr: 'Césarienne', en: 'Caesarean section', category: 'surgery', price: 150_000 },
  {
    code: 'ACC-NORM',
    fr: 'Accouchement par voie basse',
    en: 'Vaginal delivery',
    category: 'delivery',
    price: 25_000,
  },
  {
    code: 'ACC-GEM',
    fr: 'Accouchement gémellaire',
    en: 'Twin delivery',
    category: 'delivery',
    price: 40_000,
  },
  {
    code: 'MED-AL',
    fr: 'Artéméther-luméfantrine 20/120 mg (comprimé)',
    en: 'Artemether-lumefantrine 20/120 mg (tablet)',
    category: 'medicine',
    price: 100,
    presentation: 'artemether-lumefantrine:tablet:oral:20 mg/120 mg',
  },
  {
    code: 'MED-ALD',
    fr: 'Artéméther-luméfantrine dispersible (comprimé)',
    en: 'Artemether-lumefantrine dispersible (tablet)',
    category: 'medicine',
    price: 100,
    presentation: 'artemether-lumefantrine:dispersible_tablet:oral:20 mg/120 mg',
  },
  {
    code: 'MED-PCM',
    fr: 'Paracétamol 500 mg (comprimé)',
    en: 'Paracetamol 500 mg (tablet)',
    category: 'medicine',
    price: 25,
    presentation: 'paracetamol:tablet:oral:500 mg',
  },
  {
    code: 'MED-AMX',
    fr: 'Amoxicilline 500 mg (gélule)',
    en: 'Amoxicillin 500 mg (capsule)',
    category: 'medicine',
    price: 50,
    presentation: 'amoxicillin:capsule:oral:500 mg',
  },
  {
    code: 'MED-SRO',
    fr: 'SRO (sachet)',
    en: 'ORS (sachet)',
    category: 'medicine',
    price: 200,
    presentation: 'ors:powder_oral:oral:20.5 g/l (sachet pour 1 l)',
  },
  {
    code: 'MED-ART',
    fr: 'Artésunate injectable 60 mg (flacon)',
    en: 'Injectable artesunate 60 mg (vial)',
    category: 'medicine',
    price: 3500,
    presentation: 'artesunate:injection:iv:60 mg/vial',
  },
  {
    code: 'MED-RL',
    fr: 'Ringer lactate 500 ml',
    en: "Lactated Ringer's 500 ml",
    category: 'medicine',
    price: 2500,
    presentation: 'ringer-lactate:infusion:iv:500 ml',
  },
];

const round50 = (n: number) => Math.round(n / 50) * 50;
const PRICE: Record<PayerCategory, (p: number) => number> = {
  private: (p) => p,
  insured: (p) => p,
  staff: (p) => round50(p / 2),
  indigent: (p) => round50(p / 4),
};

export async function seedBilling(tx: Queryable): Promise<{ acts: number; invoices: number }> {
  const [h] = await tx.select().from(hospitals).where(eq(hospitals.code, 'HGG'));
  const [cai] = h
    ? await tx
        .select({ id: departments.id })
        .from(departments)
        .where(and(eq(departments.hospitalId, h.id), eq(departments.code, 'CAI')))
    : [];
  const [cashier] = await tx.select({ id: users.id }).from(users).where(eq(users.email, CASHIER));
  if (!h || !cai || !cashier) return { acts: 0, invoices: 0 };
  const links = await tx.execute<{ kind: string; code: string; id: string }>(sql`
    select 'exam' as kind, code, id from exam_catalogue
    union all select 'presentation' as kind, code, id from medication_presentations`);
  const linkOf = (kind: string, code?: string) =>
    code ? (links.rows.find((r) => r.kind === kind && r.code === code)?.id ?? null) : null;

  const actIds = new Map<string, { id: string; act: DemoAct }>();
  for (const a of ACTS) {
    const [row] = await tx
      .insert(medicalActs)
      .values({
        hospitalId: h.id,
        code: a.code,
        labelFr: a.fr,
        labelEn: a.en,
        category: a.category,
        autoSource: a.auto ?? null,
        examId: linkOf('exam', a.exam),
        presentationId: linkOf('presentation', a.presentation),
      })
      .returning({ id: medicalActs.id });
    actIds.set(a.code, { id: row!.id, act: a });
    await tx.insert(actTariffs).values(
      (Object.keys(PRICE) as PayerCategory[]).map((c) => ({
        hospitalId: h.id,
        actId: row!.id,
        payerCategory: c,
        price: PRICE[c](a.price),
        currency: h.currency,
        validFrom: '2025-01-01',
      })),
    );
  }

  const [insurer] = await tx
    .insert(payers)
    .values({
      hospitalId: h.id,
      code: 'ASCOMA',
      name: 'Ascoma Assurances',
      kind: 'insurer',
      payerCategory: 'insured',
      contact: 'Service prestations, +225 27 20 31 24 00',
    })
    .returning({ id: payers.id });
  await tx.insert(payerRules).values(
    (
      [
        ['consultation', 80, null],
        ['laboratory', 80, 20_000],
        ['imaging', 80, 50_000],
        ['medicine', 80, 15_000],
        ['bed_day', 80, 100_000],
        ['nursing', 80, null],
        ['procedure', 80, null],
        ['surgery', 80, 300_000],
        ['delivery', 80, null],
      ] as const
    ).map(([category, ratePercent, ceiling]) => ({ payerId: insurer!.id, category, ratePercent, ceiling })),
  );
  const [programme] = await tx
    .insert(payers)
    .values({
      hospitalId: h.id,
      code: 'GRAT-PALU-U5',
      name: 'Gratuité du paludisme chez les enfants de moins de 5 ans',
      kind: 'free_care',
      payerCategory: 'indigent',
      contact: 'Programme national de lutte contre le paludisme',
      maxAgeYears: 5,
    })
    .returning({ id: payers.id });
  await tx.insert(payerRules).values(
    (['consultation', 'laboratory', 'medicine'] as const).map((category) => ({
      payerId: programme!.id,
      category,
      ratePercent: 100,
      ceiling: null,
    })),
  );

  // Two completed visits of journey patients in HGG, insured by Ascoma: the first invoiced, the second to invoice.
  const visits = await tx.execute<{
    consultation: string;
    admission: string;
    patient: string;
    doctor: string;
    at: string | Date;
  }>(sql`select c.id as consultation, c.admission_id as admission, c.patient_id as patient, c.doctor_id as doctor,
      coalesce(c.completed_at, c.started_at) as at
    from consultations c where c.hospital_id = ${h.id} and c.status = 'completed' and c.admission_id is not null
    order by c.completed_at desc nulls last, c.id limit 2`);
  let issued = 0;
  for (const [i, v] of visits.rows.entries()) {
    const [coverage] = await tx
      .insert(patientCoverages)
      .values({
        hospitalId: h.id,
        patientId: v.patient,
        payerId: insurer!.id,
        memberNumber: `ASC-2026-00${4512 + i}`,
        validFrom: '2026-01-01',
        createdBy: cashier.id,
      })
      .returning({ id: patientCoverages.id });
    if (i > 0) break;
    const at = new Date(v.at);
    const done: { code: string; quantity: number; source: 'consultation' | 'manual'; ref: string | null }[] =
      [
        { code: 'CONS-GEN', quantity: 1, source: 'consultation', ref: v.consultation },
        { code: 'LAB-TDR', quantity: 1, source: 'manual', ref: null },
        { code: 'MED-AL', quantity: 24, source: 'manual', ref: null },
        { code: 'MED-PCM', quantity: 12, source: 'manual', ref: null },
      ];
    const [inv] = await tx
      .insert(invoices)
      .values({
        hospitalId: h.id,
        patientId: v.patient,
        admissionId: v.admission,
        currency: h.currency,
        payerCategory: 'insured',
        payerId: insurer!.id,
        coverageId: coverage!.id,
        memberNumber: `ASC-2026-00${4512 + i}`,
        createdBy: cashier.id,
        createdAt: at,
      })
      .returning({ id: invoices.id });
    let total = 0;
    let payerTotal = 0;
    for (const [position, d] of done.entries()) {
      const { id: actId, act } = actIds.get(d.code)!;
      const [pa] = await tx
        .insert(performedActs)
        .values({
          hospitalId: h.id,
          patientId: v.patient,
          actId,
          admissionId: v.admission,
          quantity: d.quantity,
          source: d.source,
          sourceRef: d.ref,
          performedAt: at,
          performedBy: v.doctor,
        })
        .returning({ id: performedActs.id });
      const unit = PRICE.insured(act.price);
      const lineTotal = lineGross(unit, d.quantity);
      // 80 % for every category here; the ceilings are far above a visit's amounts.
      const share = splitShare(lineTotal, 80, null);
      total += lineTotal;
      payerTotal += share.payer;
      await tx.insert(invoiceLines).values({
        invoiceId: inv!.id,
        position: position + 1,
        actId,
        code: act.code,
        labelFr: act.fr,
        labelEn: act.en,
        category: act.category,
        performedActId: pa!.id,
        quantity: d.quantity,
        unitPrice: unit,
        total: lineTotal,
        payerShare: share.payer,
        patientShare: share.patient,
      });
    }
    const year = (await hospitalToday(tx, h.id)).slice(0, 4);
    const number = documentNumber(
      NUMBER_PREFIXES.invoice,
      h.code,
      Number(year),
      await nextSequenceValue(tx, h.id, `invoice:${year}`),
    );
    await tx
      .update(invoices)
      .set({
        total,
        payerShare: payerTotal,
        patientShare: total - payerTotal,
        status: 'issued',
        number,
        issuedAt: new Date(at.getTime() + 20 * 60_000),
        issuedBy: cashier.id,
      })
      .where(eq(invoices.id, inv!.id));
    issued += 1;

    // The cashier's session, opened this morning with a float; part of the patient's share paid in cash, part
    // by MTN MoMo; the rest is still due.
    const [session] = await tx
      .insert(cashSessions)
      .values({
        hospitalId: h.id,
        cashierId: cashier.id,
        openedAt: new Date(Date.now() - 3 * 3_600_000),
        floats: [{ currency: h.currency, amount: 25_000 }],
      })
      .returning({ id: cashSessions.id });
    const patientShare = total - payerTotal;
    const cash = round50(patientShare / 3);
    const momo = round50(patientShare / 3);
    for (const p of [
      { method: 'cash' as const, amount: cash, operator: null, phone: null, reference: null },
      {
        method: 'mobile_money' as const,
        amount: momo,
        operator: 'mtn_momo' as const,
        phone: '+243 81 555 12 34',
        reference: 'MP260311.0914.B52017',
      },
    ]) {
      const [pay] = await tx
        .insert(payments)
        .values({
          hospitalId: h.id,
          invoiceId: inv!.id,
          cashSessionId: session!.id,
          method: p.method,
          operator: p.operator,
          phone: p.phone,
          reference: p.reference,
          currency: h.currency,
          amount: p.amount,
          amountInvoice: p.amount,
          receivedBy: cashier.id,
        })
        .returning({ id: payments.id });
      const n = await nextSequenceValue(tx, h.id, `receipt:${year}`);
      await tx.insert(receipts).values({
        hospitalId: h.id,
        number: documentNumber(NUMBER_PREFIXES.receipt, h.code, Number(year), n),
        paymentId: pay!.id,
      });
    }
    await tx
      .update(invoices)
      .set({ paid: cash + momo })
      .where(eq(invoices.id, inv!.id));
  }

  // A deposit on admission (decision 0036): the cashier took 50 000 F CFA on an ongoing stay, on its draft invoice
  // (the bed-days are added when the cash desk assembles it). Times relative to now: valid at any hour.
  const [stay] = (
    await tx.execute<{
      id: string;
      patient: string;
    }>(sql`select id, patient_id as patient from hospitalizations
      where hospital_id = ${h.id} and status = 'admitted' order by admitted_at, id limit 1`)
  ).rows;
  if (stay) {
    const open = await tx.execute<{ id: string }>(sql`select id from cash_sessions
      where hospital_id = ${h.id} and cashier_id = ${cashier.id} and status = 'open'`);
    const sessionId =
      open.rows[0]?.id ??
      (
        await tx
          .insert(cashSessions)
          .values({
            hospitalId: h.id,
            cashierId: cashier.id,
            openedAt: new Date(Date.now() - 3 * 3_600_000),
            floats: [{ currency: h.currency, amount: 25_000 }],
          })
          .returning({ id: cashSessions.id })
      )[0]!.id;
    const deposit = 50_000 * 10 ** currencyExponent(h.currency);
    const [draft] = await tx
      .insert(invoices)
      .values({
        hospitalId: h.id,
        patientId: stay.patient,
        hospitalizationId: stay.id,
        currency: h.currency,
        payerCategory: 'private',
        paid: deposit,
        createdBy: cashier.id,
        createdAt: new Date(Date.now() - 2 * 3_600_000),
      })
      .returning({ id: invoices.id });
    const [pay] = await tx
      .insert(payments)
      .values({
        hospitalId: h.id,
        invoiceId: draft!.id,
        cashSessionId: sessionId,
        method: 'cash',
        currency: h.currency,
        amount: deposit,
        amountInvoice: deposit,
        isDeposit: true,
        note: "Caution à l'admission",
        receivedBy: cashier.id,
        receivedAt: new Date(Date.now() - 2 * 3_600_000),
      })
      .returning({ id: payments.id });
    const year = (await hospitalToday(tx, h.id)).slice(0, 4);
    const n = await nextSequenceValue(tx, h.id, `receipt:${year}`);
    await tx.insert(receipts).values({
      hospitalId: h.id,
      number: documentNumber(NUMBER_PREFIXES.receipt, h.code, Number(year), n),
      paymentId: pay!.id,
    });
  }
  // The day's rates of the currencies patients bring (decision 0040): the euro at its fixed parity with the
  // franc CFA since the start of the year, the US dollar as the cashier set it this morning.
  const today = await hospitalToday(tx, h.id);
  await tx.insert(exchangeRates).values([
    {
      hospitalId: h.id,
      base: 'EUR',
      quote: h.currency,
      rate: '655.957',
      validOn: `${today.slice(0, 4)}-01-01`,
      setBy: cashier.id,
      note: 'Parité fixe',
    },
    { hospitalId: h.id, base: 'USD', quote: h.currency, rate: '603.5', validOn: today, setBy: cashier.id },
  ]);
  return { acts: ACTS.length, invoices: issued };
}
