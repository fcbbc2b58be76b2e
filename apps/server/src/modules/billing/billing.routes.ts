import {
  ZCashSession,
  ZCashSessionClose,
  ZCashSessionList,
  ZCashSessionOpen,
  ZCashSessionQuery,
  ZCashSessionReport,
  ZCoverage,
  ZCoverageCreate,
  ZCoverageEnd,
  ZCoverageList,
  ZCreditNoteCreate,
  ZDepositCreate,
  ZDepositStayList,
  ZDepositStayQuery,
  ZExchangeRate,
  ZExchangeRateCreate,
  ZExchangeRateList,
  ZExchangeRateQuery,
  ZExchangeRatesCurrent,
  ZExchangeRatesCurrentQuery,
  ZInvoiceAssemble,
  ZInvoiceAssembly,
  ZInvoiceCancel,
  ZInvoiceDetail,
  ZInvoiceLineCreate,
  ZInvoiceLineDiscount,
  ZInvoiceLineParams,
  ZInvoiceLineRemove,
  ZInvoiceList,
  ZInvoiceQuery,
  ZInvoiceVisitList,
  ZInvoiceVisitQuery,
  ZMobileMoneyCallbackAck,
  ZMobileMoneyOperatorParams,
  ZMobileMoneyRequest,
  ZMobileMoneyRequestCreate,
  ZPatientBalance,
  ZPayer,
  ZPayerCreate,
  ZPayerList,
  ZPayerQuery,
  ZPayerStatement,
  ZPayerStatementQuery,
  ZPayerUpdate,
  ZPaymentCreate,
  ZPaymentRefund,
  ZReceipt,
  ZStayDeposits,
} from '@greensen/shared/contracts/billing';
import { ZIdParams } from '@greensen/shared/contracts/common';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { DepositsService } from './deposits.service.js';
import { ExchangeRatesService } from './exchange-rates.service.js';
import { InvoicesService } from './invoices.service.js';
import { OutboxMobileMoneyProvider } from './mobile-money.js';
import { MobileMoneyService } from './mobile-money.service.js';
import { PayersService } from './payers.service.js';
import { PaymentsService } from './payments.service.js';

defineMessages({
  'billing.callback_refused': {
    fr: 'Rappel refusé : signature, horodatage ou demande invalide.',
    en: 'Callback refused: invalid signature, timestamp or request.',
  },
  'billing.callback_body_invalid': {
    fr: 'Corps du rappel invalide.',
    en: 'Invalid callback body.',
  },
  'billing.callback_amount_mismatch': {
    fr: 'Le montant ou la devise confirmés ne sont pas ceux de la demande.',
    en: 'The confirmed amount or currency is not the one requested.',
  },
  'billing.rate_same_currency': {
    fr: 'Le taux porte sur une autre devise que celle de l’hôpital.',
    en: "A rate is for a currency other than the hospital's.",
  },
  'billing.mobile_money.confirmed_title': {
    fr: 'Paiement mobile confirmé',
    en: 'Mobile payment confirmed',
  },
  'billing.mobile_money.confirmed_message': {
    fr: '{amount} reçus (transaction {reference}), reçu {receipt}.',
    en: '{amount} received (transaction {reference}), receipt {receipt}.',
  },
  'billing.mobile_money.unposted_title': {
    fr: 'Paiement mobile confirmé, caisse fermée',
    en: 'Mobile payment confirmed, cash session closed',
  },
  'billing.mobile_money.unposted_message': {
    fr: '{amount} reçus (transaction {reference}) : ouvrez votre caisse et enregistrez-le avec cette référence.',
    en: '{amount} received (transaction {reference}): open your cash session and record it with this reference.',
  },
  'billing.mobile_money.failed_title': {
    fr: 'Paiement mobile échoué',
    en: 'Mobile payment failed',
  },
  'billing.mobile_money.failed_message': {
    fr: 'La demande de {amount} n’a pas abouti (transaction {reference}).',
    en: 'The request for {amount} did not go through (transaction {reference}).',
  },
  'billing.not_billing_staff': {
    fr: 'Réservé au personnel de la caisse (membres d’un service de facturation).',
    en: 'For the cash desk staff only (members of a billing department).',
  },
  'billing.currency_invalid': {
    fr: 'Code de devise ISO 4217 attendu : trois lettres, par exemple « XOF ».',
    en: 'An ISO 4217 currency code is expected: three letters, for example "XOF".',
  },
  'billing.rate_invalid': {
    fr: 'Taux attendu : un nombre décimal positif (8 décimales au plus), par exemple 655.957.',
    en: 'Expected rate: a positive decimal number (at most 8 decimals), for example 655.957.',
  },
  'billing.code_invalid': {
    fr: 'Code attendu : lettres majuscules, chiffres, « . », « _ » ou « - ».',
    en: 'Expected code: capital letters, digits, ".", "_" or "-".',
  },
  'billing.rules_duplicate_category': {
    fr: 'Une seule règle par catégorie d’actes.',
    en: 'One rule per act category.',
  },
  'billing.valid_to_before_from': {
    fr: 'La fin précède le début.',
    en: 'The end is before the start.',
  },
  'billing.visit_or_stay': {
    fr: 'Une facture se rattache à une visite ou à un séjour (un seul des deux).',
    en: 'An invoice belongs to a visit or to a stay (exactly one).',
  },
  'billing.phone_invalid': { fr: 'Numéro de téléphone invalide.', en: 'Invalid phone number.' },
  'billing.operator_required': {
    fr: "L'opérateur de mobile money est requis.",
    en: 'The mobile money operator is required.',
  },
  'billing.phone_required': {
    fr: 'Le numéro du payeur est requis pour le mobile money.',
    en: "The payer's phone number is required for mobile money.",
  },
  'billing.reference_required': {
    fr: 'La référence de la transaction est requise pour le mobile money.',
    en: 'The transaction reference is required for mobile money.',
  },
  'billing.operator_mobile_only': {
    fr: 'Un opérateur ne se donne que pour un paiement par mobile money.',
    en: 'An operator is given for a mobile money payment only.',
  },
  'billing.currency_twice': { fr: 'Chaque devise une seule fois.', en: 'Each currency once.' },
  'billing.encounter_unknown': {
    fr: "Cette visite ou ce séjour n'existe pas dans l'hôpital.",
    en: 'No such visit or stay in the hospital.',
  },
  'billing.coverage_not_applicable': {
    fr: 'Cette prise en charge ne s’applique pas à ce patient à cette date (validité, âge ou sexe).',
    en: 'This coverage does not apply to this patient on that date (validity, age or sex).',
  },
  'billing.already_issued': {
    fr: 'La facture de cette visite ou de ce séjour est déjà émise : corrigez-la par un avoir.',
    en: 'The invoice of this visit or stay is already issued: correct it with a credit note.',
  },
  'billing.assembling': {
    fr: 'La facture de cette visite est en cours de création : réessayez.',
    en: 'The invoice of this visit is being created: try again.',
  },
  'billing.not_draft': {
    fr: 'Seul un brouillon de facture se modifie, s’émet ou s’annule.',
    en: 'Only a draft invoice can be changed, issued or cancelled.',
  },
  'billing.act_unknown': {
    fr: "Cet acte n'existe pas ou n'est plus actif.",
    en: 'No such act, or it is no longer active.',
  },
  'billing.no_tariff': {
    fr: "Cet acte n'a pas de tarif aujourd'hui pour la catégorie de la facture.",
    en: "This act has no tariff today for the invoice's category.",
  },
  'billing.line_unknown': {
    fr: "Cette ligne n'est pas une ligne active de la facture.",
    en: 'Not a live line of this invoice.',
  },
  'billing.discount_above_line': {
    fr: 'La remise dépasse le montant de la ligne.',
    en: 'The discount is above the amount of the line.',
  },
  'billing.empty': {
    fr: 'Une facture sans ligne ne s’émet pas.',
    en: 'An invoice without lines is not issued.',
  },
  'billing.has_payments': {
    fr: 'Ce brouillon a reçu des paiements : remboursez-les avant de l’annuler.',
    en: 'This draft has received payments: refund them before cancelling it.',
  },
  'billing.not_creditable': {
    fr: 'Un avoir se fait sur une facture émise.',
    en: 'A credit note is made against an issued invoice.',
  },
  'billing.line_credited': {
    fr: 'Une de ces lignes a déjà fait l’objet d’un avoir.',
    en: 'One of these lines already has a credit note.',
  },
  'billing.nothing_to_credit': {
    fr: 'Toutes les lignes de cette facture ont déjà fait l’objet d’un avoir.',
    en: 'Every line of this invoice already has a credit note.',
  },
  'billing.invoice_unknown': {
    fr: "Cette facture n'existe pas dans l'hôpital.",
    en: 'No such invoice in the hospital.',
  },
  'billing.not_payable': {
    fr: 'Cette facture ne reçoit pas de paiement (annulée, ou un avoir).',
    en: 'This invoice takes no payment (cancelled, or a credit note).',
  },
  'billing.no_open_session': {
    fr: 'Ouvrez votre session de caisse pour encaisser.',
    en: 'Open your cash session to take payments.',
  },
  'billing.rate_required': {
    fr: 'Le taux du jour est requis pour un paiement dans une autre devise que celle de la facture.',
    en: "The rate of the day is required for a payment in another currency than the invoice's.",
  },
  'billing.mobile_money_over_pending': {
    fr: 'Le montant dépasse le reste à payer moins les paiements mobiles en attente : {available} au plus.',
    en: 'The amount is above what is left to pay less the pending mobile-money requests: {available} at most.',
  },
  'billing.mobile_money_pending_phone': {
    fr: 'Une demande de paiement mobile est déjà en attente pour cette facture sur ce numéro : attendez sa réponse.',
    en: 'A mobile-money request for this invoice is already pending on this phone: wait for its answer.',
  },
  'billing.mobile_money_pending': {
    fr: 'Un paiement mobile de {amount} est en attente sur cette facture : confirmez pour encaisser quand même.',
    en: 'A mobile-money payment of {amount} is pending on this invoice: confirm to take this payment anyway.',
  },
  'billing.tendered_short': {
    fr: 'Le montant reçu est inférieur au montant à encaisser : il doit le couvrir.',
    en: 'The amount tendered is less than the amount to take: it must cover it.',
  },
  'billing.tendered_cash_only': {
    fr: 'Le montant reçu et la monnaie rendue ne concernent que les paiements en espèces.',
    en: 'The amount tendered and the change due are for cash payments only.',
  },
  'billing.overpayment': {
    fr: 'Le montant dépasse le reste à payer ({balance}).',
    en: 'The amount is above what is left to pay ({balance}).',
  },
  'billing.reference_taken': {
    fr: 'Cette référence de transaction est déjà enregistrée pour cet opérateur.',
    en: 'This transaction reference is already recorded for this operator.',
  },
  'billing.not_refundable': { fr: 'Un remboursement ne se rembourse pas.', en: 'A refund is not refunded.' },
  'billing.refund_above_payment': {
    fr: 'Le remboursement dépasse ce qui reste du paiement ({left}).',
    en: 'The refund is above what is left of the payment ({left}).',
  },
  'billing.session_already_open': {
    fr: 'Vous avez déjà une session de caisse ouverte.',
    en: 'You already have an open cash session.',
  },
  'billing.not_your_session_report': {
    fr: 'Un caissier ne lit que le rapport de ses propres sessions ; le médecin-chef et l’administrateur lisent tous les rapports.',
    en: 'A cashier reads the report of her own sessions only; the head doctor and the administrator read every report.',
  },
  'billing.not_your_session': {
    fr: 'Seul le caissier de la session la clôture.',
    en: 'Only the cashier of the session closes it.',
  },
  'billing.session_closed': { fr: 'Cette session est déjà clôturée.', en: 'This session is already closed.' },
  'billing.payer_code_taken': {
    fr: 'Ce code de tiers payant existe déjà.',
    en: 'This payer code already exists.',
  },
  'billing.payer_unknown': {
    fr: "Ce tiers payant n'existe pas ou n'est plus actif.",
    en: 'No such payer, or it is inactive.',
  },
  'billing.deposit_after_issue': {
    fr: 'La facture de ce séjour est émise : encaissez un paiement sur la facture plutôt qu’une caution.',
    en: "This stay's invoice is issued: take a payment on the invoice rather than a deposit.",
  },
  'billing.coverage_exists': {
    fr: 'Cette prise en charge existe déjà pour ce patient à cette date.',
    en: 'This coverage already exists for this patient from that date.',
  },
});

/**
 * Billing (issue 21, `/billing`, decision 0027): payers and coverage, invoices, payments and receipts, the cash
 * desk, payer statements and a patient's balance. Routes let the role groups of ACTION_GROUPS through; the
 * services then require a billing department's membership where decision 0027 says so.
 */
export async function billingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const invoices = new InvoicesService(app);
  const paymentsService = new PaymentsService(app);
  const payers = new PayersService(app);
  const deposits = new DepositsService(app, invoices, paymentsService);
  const mobileMoney = new MobileMoneyService(app, paymentsService, new OutboxMobileMoneyProvider(app.log));
  const rates = new ExchangeRatesService(app);
  const policy = (roles: readonly DashboardGroup[]) =>
    ({ access: { scope: 'hospital', module: 'billing', roles } }) as const;
  const reader = policy(ACTION_GROUPS['billing.read']);
  const worker = policy(ACTION_GROUPS['billing.work']);
  const crediter = policy(ACTION_GROUPS['billing.credit']);
  const manager = policy(ACTION_GROUPS['billing.manage']);
  const balance = policy(ACTION_GROUPS['billing.balance']);
  const tags = ['billing'];
  const PatientParams = z.object({ id: z.uuid() });
  const CoverageParams = z.object({ id: z.uuid(), coverage_id: z.uuid() });

  // Payers and coverage ---------------------------------------------------------------------------------

  r.get(
    '/api/payers/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Payers with their coverage rules',
        querystring: ZPayerQuery,
        response: { 200: ZPayerList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await payers.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );
  r.post(
    '/api/payers/',
    {
      config: manager,
      schema: { tags, summary: 'A new payer', body: ZPayerCreate, response: { 201: ZPayer } },
    },
    async (request, reply) => reply.status(201).send(await payers.create(contextOf(request), request.body)),
  );
  r.get(
    '/api/payers/:id/',
    { config: reader, schema: { tags, summary: 'A payer', params: ZIdParams, response: { 200: ZPayer } } },
    async (request) => payers.read(contextOf(request), request.params.id),
  );
  r.patch(
    '/api/payers/:id/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Changes a payer (its rules replace the whole list)',
        params: ZIdParams,
        body: ZPayerUpdate,
        response: { 200: ZPayer },
      },
    },
    async (request) => payers.update(contextOf(request), request.params.id, request.body),
  );
  r.get(
    '/api/payers/:id/statement/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'What to claim from a payer: issued invoices and credit notes of a period with its share',
        params: ZIdParams,
        querystring: ZPayerStatementQuery,
        response: { 200: ZPayerStatement },
      },
    },
    async (request) =>
      payers.statement(contextOf(request), request.params.id, request.query.from, request.query.to),
  );
  r.get(
    '/api/patients/:id/coverages/',
    {
      config: reader,
      schema: {
        tags,
        summary: "A patient's coverages",
        params: PatientParams,
        response: { 200: ZCoverageList },
      },
    },
    async (request) => payers.coverages(contextOf(request), request.params.id),
  );
  r.post(
    '/api/patients/:id/coverages/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Adds a coverage (payer, member number, validity) to a patient',
        params: PatientParams,
        body: ZCoverageCreate,
        response: { 201: ZCoverage },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await payers.addCoverage(contextOf(request), request.params.id, request.body)),
  );
  r.post(
    '/api/patients/:id/coverages/:coverage_id/end/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Ends a coverage (default today)',
        params: CoverageParams,
        body: ZCoverageEnd,
        response: { 200: ZCoverage },
      },
    },
    async (request) =>
      payers.endCoverage(
        contextOf(request),
        request.params.id,
        request.params.coverage_id,
        request.body.valid_to,
      ),
  );
  r.get(
    '/api/patients/:id/balance/',
    {
      config: balance,
      schema: {
        tags,
        summary: "A patient's balance: what is owed on issued invoices (clinicians read it too)",
        params: PatientParams,
        response: { 200: ZPatientBalance },
      },
    },
    async (request) => payers.balance(contextOf(request), request.params.id),
  );

  // Invoices --------------------------------------------------------------------------------------------

  r.get(
    '/api/invoices/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Invoices and credit notes by patient, status, kind, date range, number; newest first',
        querystring: ZInvoiceQuery,
        response: { 200: ZInvoiceList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count, capped } = await invoices.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows, { countCapped: capped });
    },
  );
  r.get(
    '/api/invoices/visits/',
    {
      config: worker,
      schema: {
        tags,
        summary:
          "A patient's visits to pick for the assembly: date, department, status, live invoice; no clinical content (decision 0088)",
        querystring: ZInvoiceVisitQuery,
        response: { 200: ZInvoiceVisitList },
      },
    },
    async (request) => {
      const { page, page_size, patient } = request.query;
      const { rows, count } = await invoices.visits(contextOf(request), patient, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );
  r.post(
    '/api/invoices/assemble/',
    {
      config: worker,
      schema: {
        tags,
        summary:
          'The draft invoice of a visit or a stay from what was performed (201 new, 200 refreshed): its summary, not its lines',
        body: ZInvoiceAssemble,
        response: { 200: ZInvoiceAssembly, 201: ZInvoiceAssembly },
      },
    },
    async (request, reply) => {
      const { created, invoice } = await invoices.assemble(contextOf(request), request.body);
      return reply.status(created ? 201 : 200).send(invoice);
    },
  );
  r.get(
    '/api/invoices/:id/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'An invoice with its lines, payments and credit notes',
        params: ZIdParams,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) => invoices.read(contextOf(request), request.params.id),
  );
  r.post(
    '/api/invoices/:id/lines/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Adds a line (an act of the catalogue) to a draft',
        params: ZIdParams,
        body: ZInvoiceLineCreate,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) => invoices.addLine(contextOf(request), request.params.id, request.body),
  );
  r.post(
    '/api/invoices/:id/lines/:line_id/remove/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Removes a line of a draft with a reason',
        params: ZInvoiceLineParams,
        body: ZInvoiceLineRemove,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) =>
      invoices.removeLine(contextOf(request), request.params.id, request.params.line_id, request.body.reason),
  );
  r.post(
    '/api/invoices/:id/lines/:line_id/discount/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'A discount on a line of a draft (amount, reason; the caller is recorded)',
        params: ZInvoiceLineParams,
        body: ZInvoiceLineDiscount,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) =>
      invoices.discountLine(
        contextOf(request),
        request.params.id,
        request.params.line_id,
        request.body.amount,
        request.body.reason,
      ),
  );
  r.post(
    '/api/invoices/:id/issue/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Issues a draft: FAC-<HOSPITAL>-<YEAR>-000123, without gaps; immutable afterwards',
        params: ZIdParams,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) => invoices.issue(contextOf(request), request.params.id),
  );
  r.post(
    '/api/invoices/:id/cancel/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Cancels a draft with a reason',
        params: ZIdParams,
        body: ZInvoiceCancel,
        response: { 200: ZInvoiceDetail },
      },
    },
    async (request) => invoices.cancel(contextOf(request), request.params.id, request.body.reason),
  );
  r.post(
    '/api/invoices/:id/credit-note/',
    {
      config: crediter,
      schema: {
        tags,
        summary: 'A credit note (AV-…) against an issued invoice: all its lines, or some',
        params: ZIdParams,
        body: ZCreditNoteCreate,
        response: { 201: ZInvoiceDetail },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invoices.creditNote(contextOf(request), request.params.id, request.body)),
  );

  // Payments and receipts -------------------------------------------------------------------------------

  r.post(
    '/api/payments/',
    {
      config: worker,
      schema: {
        tags,
        summary: "A payment in the cashier's open session; its numbered receipt (REC-…)",
        body: ZPaymentCreate,
        response: { 201: ZReceipt },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await paymentsService.record(contextOf(request), request.body)),
  );
  r.post(
    '/api/payments/:id/refund/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Refunds (part of) a payment with a reason: a negative movement and its receipt',
        params: ZIdParams,
        body: ZPaymentRefund,
        response: { 201: ZReceipt },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await paymentsService.refund(
            contextOf(request),
            request.params.id,
            request.body.amount,
            request.body.reason,
          ),
        ),
  );
  r.get(
    '/api/receipts/:id/',
    {
      config: reader,
      schema: { tags, summary: 'A receipt, to print', params: ZIdParams, response: { 200: ZReceipt } },
    },
    async (request) => paymentsService.readReceipt(contextOf(request), request.params.id),
  );

  // Deposits on admission (decision 0036) ----------------------------------------------------------------

  r.get(
    '/api/hospitalizations/:id/deposits/',
    {
      config: reader,
      schema: {
        tags,
        summary: "A stay's deposits and the invoice that counts them",
        params: ZIdParams,
        response: { 200: ZStayDeposits },
      },
    },
    async (request) => deposits.list(contextOf(request), request.params.id),
  );
  r.get(
    '/api/deposits/stays/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'The open stays, to find the one taking a deposit at the cash desk (decision 0088)',
        querystring: ZDepositStayQuery,
        response: { 200: ZDepositStayList },
      },
    },
    async (request) => {
      const { page, page_size, search } = request.query;
      const { rows, count } = await deposits.stays(contextOf(request), search, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );
  r.post(
    '/api/hospitalizations/:id/deposits/',
    {
      config: worker,
      schema: {
        tags,
        summary: "A deposit (caution, avance) on the stay's draft invoice, with its receipt",
        params: ZIdParams,
        body: ZDepositCreate,
        response: { 201: ZReceipt },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await deposits.record(contextOf(request), request.params.id, request.body)),
  );

  // Cash desk -------------------------------------------------------------------------------------------

  r.get(
    '/api/cash-sessions/',
    {
      config: reader,
      schema: {
        tags,
        summary: "Cash sessions: the cashier's own; everyone's for the head doctor and administrators",
        querystring: ZCashSessionQuery,
        response: { 200: ZCashSessionList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await paymentsService.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );
  r.post(
    '/api/cash-sessions/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'Opens the caller’s cash session with a float per currency (one open session each)',
        body: ZCashSessionOpen,
        response: { 201: ZCashSession },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await paymentsService.open(contextOf(request), request.body)),
  );
  r.get(
    '/api/cash-sessions/current/',
    {
      config: worker,
      schema: {
        tags,
        summary: 'The caller’s open cash session (404 when none)',
        response: { 200: ZCashSession },
      },
    },
    async (request) => paymentsService.current(contextOf(request)),
  );
  r.post(
    '/api/cash-sessions/:id/close/',
    {
      config: worker,
      schema: {
        tags,
        summary:
          'Closes the caller’s session with the cash counted per currency; the report with the variance',
        params: ZIdParams,
        body: ZCashSessionClose,
        response: { 200: ZCashSessionReport },
      },
    },
    async (request) => paymentsService.close(contextOf(request), request.params.id, request.body),
  );
  r.get(
    '/api/cash-sessions/:id/report/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'Expected vs counted cash per currency, totals per method and operator',
        params: ZIdParams,
        response: { 200: ZCashSessionReport },
      },
    },
    async (request) => paymentsService.report(contextOf(request), request.params.id),
  );

  // Mobile money pushed to the phone, exchange rates (decision 0040) --------------------------------------

  r.post(
    '/api/payments/mobile-money/',
    {
      config: worker,
      schema: {
        tags,
        summary: "Asks the payer's phone to pay (pending until the operator's signed callback)",
        body: ZMobileMoneyRequestCreate,
        response: { 201: ZMobileMoneyRequest },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await mobileMoney.request(contextOf(request), request.body)),
  );
  // The operator's callback: public, signed, rate-limited; its raw body is kept for the signature (this route's
  // parser only: the encapsulated scope below).
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 16_384 },
      (_req, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/payments/mobile-money/callback/:operator/',
      {
        config: { access: { public: true }, rateLimit: { max: 120, timeWindow: 60_000 } },
        bodyLimit: 16_384,
        schema: {
          tags,
          summary: "A mobile-money operator's signed callback (X-Timestamp, X-Signature; decision 0040)",
          params: ZMobileMoneyOperatorParams,
          response: { 200: ZMobileMoneyCallbackAck },
        },
      },
      async (request) => {
        const header = (name: string) => {
          const v = request.headers[name];
          return typeof v === 'string' ? v : undefined;
        };
        return mobileMoney.callback(contextOf(request), {
          operator: request.params.operator,
          timestamp: header('x-timestamp'),
          signature: header('x-signature'),
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
      },
    );
  });

  r.get(
    '/api/exchange-rates/',
    {
      config: reader,
      schema: {
        tags,
        summary: "The hospital's exchange rates, newest first (the history)",
        querystring: ZExchangeRateQuery,
        response: { 200: ZExchangeRateList },
      },
    },
    async (request) => {
      const { page, page_size, base } = request.query;
      const { rows, count } = await rates.list(contextOf(request), base, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );
  r.get(
    '/api/exchange-rates/current/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'The rate in force on a day for each currency (the hospital’s today by default)',
        querystring: ZExchangeRatesCurrentQuery,
        response: { 200: ZExchangeRatesCurrent },
      },
    },
    async (request) => rates.current(contextOf(request), request.query.on),
  );
  r.post(
    '/api/exchange-rates/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Sets a currency’s rate from a day (a correction is a new row; the history stays)',
        body: ZExchangeRateCreate,
        response: { 201: ZExchangeRate },
      },
    },
    async (request, reply) => reply.status(201).send(await rates.create(contextOf(request), request.body)),
  );
}
