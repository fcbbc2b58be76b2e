import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZDispenseCreateSafe,
  ZPrescriptionSignSafe,
  ZPrescriptionWithSafety,
  ZSafetyConflict,
} from '@greensen/shared/contracts/medication-safety';
import {
  ZDispenseResult,
  ZLot,
  ZLotCorrection,
  ZLotList,
  ZLotQuery,
  ZMedicationDetail,
  ZMedicationList,
  ZMedicationQuery,
  ZMovementList,
  ZMovementQuery,
  ZPharmacyList,
  ZPrescription,
  ZPrescriptionCancel,
  ZPrescriptionCheck,
  ZPrescriptionCheckResult,
  ZPrescriptionCreate,
  ZPrescriptionList,
  ZPrescriptionQuery,
  ZPrescriptionRefuse,
  ZPrescriptionSignConflict,
  ZPrescriptionUpdate,
  ZReceiptCreate,
  ZReceiptResult,
  ZReorderLevel,
  ZStockAlerts,
  ZStockItem,
  ZStockList,
  ZStockQuery,
  ZStockTransferCreate,
  ZStockTransferResult,
} from '@greensen/shared/contracts/pharmacy';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { DispensingService } from './dispensing.service.js';
import { PrescriptionChecksService } from './prescription-checks.service.js';
import {
  PrescriptionService,
  type SignConflict,
  type StaleVersion,
  signConflictBody,
} from './prescriptions.service.js';
import { StockService } from './stock.service.js';

defineMessages({
  'pharmacy.presentation_unknown': {
    fr: "Cette présentation n'existe pas ou n'est plus disponible.",
    en: 'No such presentation, or it is no longer available.',
  },
  'pharmacy.patient_unknown': { fr: "Ce patient n'existe pas dans l'hôpital.", en: 'No such patient here.' },
  'pharmacy.origin_required': {
    fr: 'Une ordonnance se rédige depuis une consultation ou un séjour.',
    en: 'A prescription is written from a consultation or a stay.',
  },
  'pharmacy.consultation_unknown': {
    fr: "Cette consultation n'est pas celle de ce patient dans l'hôpital.",
    en: 'This consultation is not one of this patient in the hospital.',
  },
  'pharmacy.consultation_cancelled': {
    fr: 'Cette consultation est annulée.',
    en: 'This consultation is cancelled.',
  },
  'pharmacy.stay_closed': {
    fr: 'Ce séjour est terminé : on ne prescrit plus depuis lui.',
    en: 'This stay has ended: prescriptions are no longer written from it.',
  },
  'pharmacy.hospitalization_unknown': {
    fr: "Ce séjour n'est pas celui de ce patient dans l'hôpital.",
    en: 'This stay is not one of this patient in the hospital.',
  },
  'pharmacy.not_prescriber': {
    fr: 'Seul le prescripteur (ou un médecin chef) peut modifier ou annuler cette ordonnance ; seul le prescripteur la signe.',
    en: 'Only the prescriber (or a head doctor) may change or cancel this prescription; only the prescriber signs it.',
  },
  'pharmacy.not_draft': {
    fr: 'Cette ordonnance est signée : elle ne se modifie plus (annulez-la et rédigez-en une nouvelle).',
    en: 'This prescription is signed: it can no longer be changed (cancel it and write a new one).',
  },
  'pharmacy.stale_version': {
    fr: "L'ordonnance a été modifiée entre-temps (version {version}). Rechargez-la.",
    en: 'The prescription was changed in the meantime (version {version}). Reload it.',
  },
  'pharmacy.sign_blocked': {
    fr: "Signature impossible : une alerte bloquante n'a pas de justification.",
    en: 'Cannot sign: a blocking warning has no override reason.',
  },
  'pharmacy.not_cancellable': {
    fr: 'Cette ordonnance est déjà délivrée ou annulée.',
    en: 'This prescription is already dispensed or cancelled.',
  },
  'pharmacy.not_dispensable': {
    fr: 'Seule une ordonnance signée (et pas entièrement délivrée) peut être délivrée.',
    en: 'Only a signed prescription (not fully dispensed) can be dispensed.',
  },
  'pharmacy.line_refused': {
    fr: 'Cette ligne a été refusée par la pharmacie : elle ne se délivre plus.',
    en: 'This line was refused by the pharmacy: it can no longer be dispensed.',
  },
  'pharmacy.line_dispensed': {
    fr: 'Cette ligne est déjà entièrement délivrée.',
    en: 'This line is already fully dispensed.',
  },
  'pharmacy.nothing_to_refuse': {
    fr: 'Il ne reste aucune ligne à délivrer dans cette ordonnance.',
    en: 'No line of this prescription is left to dispense.',
  },
  'pharmacy.pharmacy_unknown': {
    fr: "Cette pharmacie n'existe pas dans l'hôpital.",
    en: 'No such pharmacy in the hospital.',
  },
  'pharmacy.to_pharmacy_unknown': {
    fr: "Ce service n'existe pas dans l'hôpital ou est désactivé.",
    en: 'No such department in the hospital, or it is deactivated.',
  },
  'pharmacy.same_pharmacy': {
    fr: 'Le lot est déjà dans ce service.',
    en: 'The lot is already in this department.',
  },
  'pharmacy.not_member': {
    fr: 'Seuls les membres de cette pharmacie gèrent son stock et délivrent.',
    en: 'Only the members of this pharmacy manage its stock and dispense.',
  },
  'pharmacy.line_unknown': {
    fr: "Cette ligne n'appartient pas à l'ordonnance.",
    en: 'This line is not one of the prescription.',
  },
  'pharmacy.above_remaining': {
    fr: 'Quantité supérieure au reste à délivrer ({remaining}).',
    en: 'Quantity above what remains to dispense ({remaining}).',
  },
  'pharmacy.substitution_inn': {
    fr: 'La substitution se fait par une présentation de la même DCI.',
    en: 'A substitute must be a presentation of the same INN.',
  },
  'pharmacy.insufficient_stock': {
    fr: 'Stock insuffisant : {available} unité(s) disponible(s) dans les lots non périmés.',
    en: 'Not enough stock: {available} unit(s) available in unexpired lots.',
  },
  'pharmacy.lot_expired': {
    fr: 'Ce lot est périmé : il ne peut pas être délivré ni transféré.',
    en: 'This lot has expired: it cannot be dispensed or transferred.',
  },
  'pharmacy.lot_unknown': {
    fr: "Ce lot n'est pas de cette pharmacie et de cette présentation.",
    en: 'This lot is not of this pharmacy and presentation.',
  },
  'pharmacy.lots_total': {
    fr: 'Les quantités des lots doivent faire la quantité de la ligne.',
    en: "The lots' quantities must add up to the line's quantity.",
  },
  'pharmacy.receipt_expired': {
    fr: 'Ce lot est déjà périmé.',
    en: 'This lot has already expired.',
  },
  'pharmacy.lot_expiry_mismatch': {
    fr: 'Ce numéro de lot existe avec une autre date de péremption.',
    en: 'This lot number exists with another expiry date.',
  },
  'pharmacy.adjustment_zero': { fr: "Un ajustement n'est pas nul.", en: 'An adjustment is not zero.' },
  'pharmacy.nothing_to_write_off': {
    fr: 'Ce lot est déjà vide.',
    en: 'This lot is already empty.',
  },
  'pharmacy.warning.allergy': {
    fr: '{name} : allergie connue du patient ({allergy}). Justification requise pour prescrire.',
    en: '{name}: known allergy of the patient ({allergy}). A reason is required to prescribe.',
  },
  'pharmacy.warning.allergy_overridden': {
    fr: '{name} : allergie connue ({allergy}), prescrit malgré tout avec une justification écrite.',
    en: '{name}: known allergy ({allergy}), prescribed anyway with a written reason.',
  },
  'pharmacy.warning.duplicate': {
    fr: '{name} est déjà prescrit dans une ordonnance en cours ({number}).',
    en: '{name} is already prescribed in an active prescription ({number}).',
  },
  'pharmacy.warning.duplicate_line': {
    fr: '{name} figure déjà à la ligne {line}.',
    en: '{name} is already on line {line}.',
  },
  'pharmacy.warning.weight_required': {
    fr: '{name} : poids requis (enfant ou présentation pédiatrique, pas de poids de moins de 30 jours).',
    en: '{name}: weight required (child or paediatric presentation, no weight from the last 30 days).',
  },
  'pharmacy.warning.out_of_stock': {
    fr: "{name} : en rupture dans les pharmacies de l'hôpital.",
    en: "{name}: out of stock in the hospital's pharmacies.",
  },
  'pharmacy.warning.expired_only': {
    fr: '{name} : seuls des lots périmés restent en stock.',
    en: '{name}: only expired lots are left in stock.',
  },
});

/** A stale version (409 with `code` and the current `version`, like consultations), or a blocked signature. */
const ZPrescriptionConflict = z.union([
  ZSafetyConflict.extend({ warnings: ZPrescriptionSignConflict.shape.warnings }),
  ZPrescriptionSignConflict,
  z.object({ detail: z.string(), code: z.string(), version: z.number().int() }),
  z.object({ detail: z.string() }),
]);

function conflictReply(request: FastifyRequest, reply: FastifyReply, result: StaleVersion | SignConflict) {
  const lang = requestLang(request);
  if ('stale' in result)
    return reply.status(409).send({
      detail: translate(lang, 'pharmacy.stale_version', { version: result.version }),
      code: 'stale_version',
      version: result.version,
    });
  return reply.status(409).send(signConflictBody(lang, result));
}

/**
 * The medication reference, prescriptions, stock and dispensing (issue 18; specification §1–2 `/pharmacy`,
 * `/medications`, `/pharmacy/medications/{id}`, `/pharmacy/prescriptions/{id}`; decision 0022).
 */
export async function pharmacyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const checks = new PrescriptionChecksService(app);
  const rx = new PrescriptionService(app, checks);
  const stock = new StockService(app);
  const dispensing = new DispensingService(app, rx, checks, stock);
  const policy = (roles: readonly DashboardGroup[] | 'any') =>
    ({ access: { scope: 'hospital', module: 'pharmacy', roles } }) as const;
  // `/medications` is outside the specification's module table: the reference is read by every member of the
  // hospital, prescribers first (decision 0022), whatever the modules of the environment.
  const reference = { access: { scope: 'hospital', module: null, roles: 'any' } } as const;
  const any = policy('any');
  const writer = policy(ACTION_GROUPS['prescription.write']);
  const manager = policy(ACTION_GROUPS['pharmacy.manage']);
  // The care team, the charge nurse and administrators read prescriptions (not secretaries; decision 0022).
  const reader = policy(ACTION_GROUPS['prescription.read']);
  const tags = ['pharmacy'];

  r.get(
    '/api/medications/',
    {
      config: reference,
      schema: {
        tags,
        summary:
          'The medication reference: INN (fr/en, typo-tolerant), brand or ATC code; ATC and stock filters',
        querystring: ZMedicationQuery,
        response: { 200: ZMedicationList },
      },
    },
    async (request) => {
      const { page, page_size, search, atc, in_stock_at } = request.query;
      const { rows, count } = await stock.medications(
        contextOf(request),
        { search, atc, inStockAt: in_stock_at },
        page,
        page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/medications/:id/',
    {
      config: reference,
      schema: {
        tags,
        summary: 'A medicine: presentations, stock per pharmacy of the hospital, the latest 50 ledger rows',
        params: ZIdParams,
        response: { 200: ZMedicationDetail },
      },
    },
    async (request) => stock.medication(contextOf(request), request.params.id),
  );

  // Prescriptions -----------------------------------------------------------------------------------------

  r.post(
    '/api/prescriptions/check/',
    {
      config: writer,
      schema: {
        tags,
        summary: 'Safety checks of lines as they are typed: allergies, duplicates, weight, stock; quantities',
        body: ZPrescriptionCheck,
        response: { 200: ZPrescriptionCheckResult },
      },
    },
    async (request) => checks.check(contextOf(request), request.body),
  );

  r.get(
    '/api/prescriptions/',
    {
      config: reader,
      schema: {
        tags,
        summary:
          "Prescriptions by patient, consultation, stay, status (to_dispense: the pharmacy's worklist), mine",
        querystring: ZPrescriptionQuery,
        response: { 200: ZPrescriptionList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await rx.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/prescriptions/',
    {
      config: writer,
      schema: {
        tags,
        summary:
          'Writes a draft prescription from a consultation or a stay (quantities computed when left out)',
        body: ZPrescriptionCreate,
        response: { 201: ZPrescription },
      },
    },
    async (request, reply) => reply.status(201).send(await rx.create(contextOf(request), request.body)),
  );

  r.get(
    '/api/prescriptions/:id/',
    {
      config: reader,
      schema: {
        tags,
        summary:
          'A prescription with its lines, warnings, what the caller may do, and (to dispense) its safety alerts with the overrides',
        params: ZIdParams,
        response: { 200: ZPrescriptionWithSafety },
      },
    },
    async (request) => rx.read(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/prescriptions/:id/',
    {
      config: writer,
      schema: {
        tags,
        summary: "Replaces a draft's lines, weight and notes, based on its version (older version → 409)",
        params: ZIdParams,
        body: ZPrescriptionUpdate,
        response: { 200: ZPrescription, 409: ZPrescriptionConflict },
      },
    },
    async (request, reply) => {
      const result = await rx.update(contextOf(request), request.params.id, request.body);
      return 'stale' in result ? conflictReply(request, reply, result) : result;
    },
  );

  r.post(
    '/api/prescriptions/:id/sign/',
    {
      config: writer,
      schema: {
        tags,
        summary:
          'Signs a draft (its prescriber); 409 with the blocking warnings that have no override reason',
        params: ZIdParams,
        body: ZPrescriptionSignSafe,
        response: { 200: ZPrescription, 409: ZPrescriptionConflict },
      },
    },
    async (request, reply) => {
      const result = await rx.sign(
        contextOf(request),
        request.params.id,
        request.body.version,
        request.body.overrides,
      );
      return 'stale' in result || 'blocked' in result ? conflictReply(request, reply, result) : result;
    },
  );

  r.post(
    '/api/prescriptions/:id/cancel/',
    {
      config: writer,
      schema: {
        tags,
        summary:
          'Cancels a prescription not fully dispensed, with a reason (its prescriber or a head doctor)',
        params: ZIdParams,
        body: ZPrescriptionCancel,
        response: { 200: ZPrescription },
      },
    },
    async (request) => rx.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.post(
    '/api/prescriptions/:id/dispense/',
    {
      config: manager,
      schema: {
        tags,
        summary:
          'Dispenses lines from a pharmacy the caller works in: FEFO lots (or chosen), partial, same-INN substitution',
        params: ZIdParams,
        body: ZDispenseCreateSafe,
        response: { 201: ZDispenseResult },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await dispensing.dispense(contextOf(request), request.params.id, request.body)),
  );

  r.post(
    '/api/prescriptions/:id/refuse/',
    {
      config: manager,
      schema: {
        tags,
        summary:
          'A pharmacy member refuses to dispense lines (null: every line left) with a written reason; the prescriber is told',
        params: ZIdParams,
        body: ZPrescriptionRefuse,
        response: { 200: ZPrescriptionWithSafety },
      },
    },
    async (request) => dispensing.refuse(contextOf(request), request.params.id, request.body),
  );

  // Stock -------------------------------------------------------------------------------------------------

  r.get(
    '/api/pharmacy/pharmacies/',
    {
      config: any,
      schema: {
        tags,
        summary: 'The pharmacy departments of the hospital; `member`: the caller manages it',
        response: { 200: ZPharmacyList },
      },
    },
    async (request) => stock.pharmacies(contextOf(request)),
  );

  r.get(
    '/api/pharmacy/stock/',
    {
      config: any,
      schema: {
        tags,
        summary: 'Stock on hand per presentation and pharmacy (from the lots’ summaries), with alert flags',
        querystring: ZStockQuery,
        response: { 200: ZStockList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await stock.stock(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/pharmacy/lots/',
    {
      config: any,
      schema: {
        tags,
        summary: 'Lots by pharmacy and presentation, first expiry first (units left only by default)',
        querystring: ZLotQuery,
        response: { 200: ZLotList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await stock.lots(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/pharmacy/movements/',
    {
      config: any,
      schema: {
        tags,
        summary: 'The stock ledger, newest first, by pharmacy, presentation, lot, kind',
        querystring: ZMovementQuery,
        response: { 200: ZMovementList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await stock.movements(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/pharmacy/alerts/',
    {
      config: any,
      schema: {
        tags,
        summary: 'Below reorder level, out of stock, lots expiring within the window (or expired)',
        querystring: z.object({ pharmacy: z.uuid().optional() }),
        response: { 200: ZStockAlerts },
      },
    },
    async (request) => stock.alerts(contextOf(request), request.query.pharmacy),
  );

  r.post(
    '/api/pharmacy/receipts/',
    {
      config: manager,
      schema: {
        tags,
        summary: "A supplier's delivery into a pharmacy the caller works in: lots and receipt ledger rows",
        body: ZReceiptCreate,
        response: { 201: ZReceiptResult },
      },
    },
    async (request, reply) => reply.status(201).send(await stock.receive(contextOf(request), request.body)),
  );

  r.post(
    '/api/pharmacy/lots/:id/corrections/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Adjustment with a reason, inventory count, or expiry write-off of a lot (a ledger row)',
        params: ZIdParams,
        body: ZLotCorrection,
        response: { 200: ZLot },
      },
    },
    async (request) => stock.correct(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/pharmacy/stock-transfers/',
    {
      config: manager,
      schema: {
        tags,
        summary: "Moves units of a lot to another department's stock (two ledger rows)",
        body: ZStockTransferCreate,
        response: { 201: ZStockTransferResult },
      },
    },
    async (request, reply) => reply.status(201).send(await stock.transfer(contextOf(request), request.body)),
  );

  r.put(
    '/api/pharmacy/reorder-levels/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Sets (or clears) the reorder level of a presentation in a pharmacy the caller works in',
        body: ZReorderLevel,
        response: { 200: ZStockItem },
      },
    },
    async (request) => stock.reorderLevel(contextOf(request), request.body),
  );
}
