import { ZIdParams, ZPageQuery } from '@greensen/shared/contracts/common';
import {
  type TBedBoard,
  ZBedAssign,
  ZBedBoard,
  ZBedBoardQuery,
  ZBedCheck,
  ZBedCheckQuery,
  ZBedHousekeeping,
  ZBoardBed,
  ZCensus,
  ZDischargeCreate,
  ZFacilityList,
  ZHospitalizationCreate,
  ZHospitalizationDetail,
  ZHospitalizationList,
  ZHospitalizationListQuery,
  ZHospitalizationUpdate,
  ZNurseParams,
  ZNursePatientList,
  ZNursePatientQuery,
  ZProgressNote,
  ZProgressNoteCreate,
  ZProgressNoteList,
  ZTransfer,
  ZTransferComplete,
  ZTransferCreate,
  ZTransferList,
  ZTransferListQuery,
  ZTransferReject,
} from '@greensen/shared/contracts/hospitalizations';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { BedService } from './beds.service.js';
import { HospitalizationService } from './hospitalizations.service.js';
import { ProgressNoteService } from './progress-notes.service.js';
import { TransferService } from './transfers.service.js';

defineMessages({
  'hospitalizations.icd_invalid': {
    fr: 'Code CIM-10 invalide (par exemple « B50.9 »).',
    en: 'Invalid ICD-10 code (for example "B50.9").',
  },
  'hospitalizations.icd_unknown': {
    fr: "Ce code CIM-10 n'existe pas dans le catalogue.",
    en: 'This ICD-10 code is not in the catalogue.',
  },
  'hospitalizations.admission_unknown': {
    fr: "Cette visite n'existe pas dans l'hôpital.",
    en: 'No such visit in the hospital.',
  },
  'hospitalizations.admission_closed': {
    fr: 'Cette visite est terminée ou annulée : enregistrez une nouvelle admission.',
    en: 'This visit is over or cancelled: register a new admission.',
  },
  'hospitalizations.already_open': {
    fr: 'Ce patient est déjà hospitalisé.',
    en: 'This patient is already in hospital.',
  },
  'hospitalizations.patient_deceased': {
    fr: 'Ce patient est décédé.',
    en: 'This patient has died.',
  },
  'hospitalizations.department_unknown': {
    fr: "Ce service n'existe pas ou est désactivé.",
    en: 'No such department, or it is deactivated.',
  },
  'hospitalizations.department_inactive': {
    fr: 'Ce service est désactivé.',
    en: 'This department is deactivated.',
  },
  'hospitalizations.doctor_unknown': {
    fr: "Ce médecin n'est pas un praticien actif de l'hôpital.",
    en: 'This doctor is not an active practitioner of the hospital.',
  },
  'hospitalizations.closed': {
    fr: 'Ce séjour est terminé : il ne peut plus être modifié.',
    en: 'This stay is over: it can no longer be changed.',
  },
  'hospitalizations.closed_notes': {
    fr: 'Ce séjour est terminé : seuls des addenda aux notes existantes sont possibles.',
    en: 'This stay is over: only addenda to existing notes are possible.',
  },
  'hospitalizations.note_unknown': {
    fr: "Cette note n'appartient pas à ce séjour.",
    en: 'This note does not belong to this stay.',
  },
  'hospitalizations.bed_unknown': {
    fr: "Ce lit n'existe pas ou n'est pas en service.",
    en: 'No such bed, or it is not in service.',
  },
  'hospitalizations.bed_taken': {
    fr: 'Ce lit vient d’être attribué à un autre patient. Choisissez un autre lit.',
    en: 'This bed was just given to another patient. Choose another bed.',
  },
  'hospitalizations.bed_unavailable': {
    fr: "Ce lit n'est pas libre (nettoyage ou hors service).",
    en: 'This bed is not free (cleaning or out of service).',
  },
  'hospitalizations.same_bed': {
    fr: 'Le patient occupe déjà ce lit.',
    en: 'The patient is already in this bed.',
  },
  'hospitalizations.override_forbidden': {
    fr: 'Seul(e) un(e) infirmier(ère) chef peut passer outre les règles de placement.',
    en: 'Only a charge nurse may override the placement rules.',
  },
  'hospitalizations.guardrail.ward_sex_F': {
    fr: "L'unité {ward} n'accueille que des femmes.",
    en: 'Ward {ward} admits women only.',
  },
  'hospitalizations.guardrail.ward_sex_M': {
    fr: "L'unité {ward} n'accueille que des hommes.",
    en: 'Ward {ward} admits men only.',
  },
  'hospitalizations.guardrail.ward_age': {
    fr: "L'unité {ward} accueille les patients de {min} à {max} ans ; ce patient a {age} ans.",
    en: 'Ward {ward} admits patients aged {min} to {max}; this patient is {age}.',
  },
  'hospitalizations.guardrail.ward_department': {
    fr: "L'unité {ward} appartient au service {department}, pas à celui du séjour.",
    en: "Ward {ward} belongs to {department}, not to the stay's department.",
  },
  'hospitalizations.guardrail.room_mixed_sex': {
    fr: 'La chambre accueille déjà un patient de l’autre sexe.',
    en: 'The room already holds a patient of the other sex.',
  },
  'hospitalizations.bed_not_cleaning': {
    fr: 'Seul un lit en nettoyage peut être remis en service comme libre.',
    en: 'Only a bed being cleaned can be made free.',
  },
  'hospitalizations.bed_not_free': {
    fr: 'Seul un lit libre peut être mis en nettoyage.',
    en: 'Only a free bed can be sent to cleaning.',
  },
  'hospitalizations.transfer_open': {
    fr: 'Un transfert est en cours : terminez-le ou annulez-le avant la sortie.',
    en: 'A transfer is under way: complete or cancel it before the discharge.',
  },
  'hospitalizations.diagnoses_required': {
    fr: 'Indiquez au moins un diagnostic de sortie.',
    en: 'Give at least one discharge diagnosis.',
  },
  'hospitalizations.follow_up_past': {
    fr: 'La date de suivi ne peut pas être dans le passé.',
    en: 'The follow-up date cannot be in the past.',
  },
  'hospitalizations.death_time_required': {
    fr: "Indiquez la date et l'heure du décès.",
    en: 'Give the date and time of death.',
  },
  'hospitalizations.death_cause_required': {
    fr: 'Indiquez la cause du décès (code CIM-10).',
    en: 'Give the cause of death (ICD-10 code).',
  },
  'hospitalizations.death_time_range': {
    fr: "L'heure du décès doit se situer pendant le séjour, et pas dans le futur.",
    en: 'The time of death must fall within the stay, and not in the future.',
  },
  'hospitalizations.death_mode_required': {
    fr: 'Un décès se déclare avec le mode de sortie « Décès ».',
    en: 'A death is recorded with the discharge mode "Deceased".',
  },
  'hospitalizations.no_follow_up': {
    fr: 'Pas de suivi pour un patient décédé.',
    en: 'No follow-up for a deceased patient.',
  },
  'hospitalizations.other_nurse': {
    fr: 'Vous ne pouvez consulter que vos propres patients.',
    en: 'You can only see your own patients.',
  },
  'transfers.department_required': {
    fr: 'Choisissez le service qui reçoit le patient.',
    en: 'Choose the receiving department.',
  },
  'transfers.facility_required': {
    fr: "Choisissez l'établissement qui reçoit le patient, ou saisissez son nom.",
    en: 'Choose the receiving facility, or type its name.',
  },
  'transfers.summary_required': {
    fr: 'Une référence vers un autre établissement demande un résumé clinique.',
    en: 'A referral to another facility needs a clinical summary.',
  },
  'transfers.stay_unknown': {
    fr: "Ce séjour n'existe pas dans l'hôpital.",
    en: 'No such stay in the hospital.',
  },
  'transfers.ward_unknown': {
    fr: "Cette unité n'appartient pas au service choisi ou est désactivée.",
    en: 'This ward is not in the chosen department, or it is deactivated.',
  },
  'transfers.hospital_unknown': {
    fr: "Cet hôpital n'existe pas ou n'est pas actif.",
    en: 'No such hospital, or it is not active.',
  },
  'transfers.already_open': {
    fr: 'Un transfert de ce séjour est déjà en cours.',
    en: 'A transfer of this stay is already under way.',
  },
  'transfers.not_receiver': {
    fr: 'Seul le service ou l’établissement qui reçoit le patient peut répondre à ce transfert.',
    en: 'Only the receiving department or facility can answer this transfer.',
  },
  'transfers.not_requested': {
    fr: 'Ce transfert a déjà reçu une réponse.',
    en: 'This transfer has already been answered.',
  },
  'transfers.not_accepted': {
    fr: "Ce transfert n'est pas accepté : il ne peut pas être effectué.",
    en: 'This transfer is not accepted: it cannot be completed.',
  },
  'transfers.closed': {
    fr: 'Ce transfert est terminé.',
    en: 'This transfer is over.',
  },
  'transfers.sender_completes': {
    fr: "Seul l'hôpital d'origine enregistre le départ du patient.",
    en: 'Only the sending hospital records the patient leaving.',
  },
  'transfers.sender_cancels': {
    fr: "Seul l'hôpital d'origine peut annuler ce transfert.",
    en: 'Only the sending hospital can cancel this transfer.',
  },
  'transfers.bed_elsewhere': {
    fr: "Ce lit n'est pas dans l'unité ou le service qui reçoit le patient.",
    en: 'This bed is not in the receiving ward or department.',
  },
  'transfers.no_bed_external': {
    fr: "Un transfert externe ne place pas le patient dans un lit de l'hôpital.",
    en: 'An external transfer does not put the patient in a bed of this hospital.',
  },
});

/**
 * Inpatient stays, the bed board and census, progress notes, discharge, transfers and the nurse's patients
 * (issue 17; specification §2 `/hospitalizations`, `/transfers`, §7 `/api/nurses/{nurse_id}/patients/`).
 */
export async function hospitalizationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const stays = new HospitalizationService(app);
  const beds = new BedService(app, stays);
  const notes = new ProgressNoteService(app);
  const moves = new TransferService(app, beds);
  const policy = (roles: readonly DashboardGroup[] | 'any') =>
    ({ access: { scope: 'hospital', module: 'hospitalizations', roles } }) as const;
  const any = policy('any');
  const tags = ['hospitalizations'];

  r.get(
    '/api/hospitalizations/',
    {
      config: any,
      schema: {
        tags,
        summary:
          'Stays of the hospital (open ones by default), filtered by ward, department, doctor, patient, name',
        querystring: ZHospitalizationListQuery,
        response: { 200: ZHospitalizationList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await stays.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/hospitalizations/',
    {
      config: policy(ACTION_GROUPS['hospitalization.admit']),
      schema: {
        tags,
        summary:
          'Admits a patient from an open visit: the stay waits for a bed (the visit becomes hospitalized)',
        body: ZHospitalizationCreate,
        response: { 201: ZHospitalizationDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return stays.create(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/hospitalizations/board/',
    {
      config: any,
      schema: {
        tags,
        summary:
          'The bed board in one answer: active wards, rooms, beds and occupants; the stays waiting for a bed',
        querystring: ZBedBoardQuery,
        response: { 200: ZBedBoard },
      },
    },
    // Kept answers are sent as they were written (lib/pre-serialized.ts), hence the cast.
    async (request) => (await stays.board(contextOf(request), request.query)) as unknown as TBedBoard,
  );

  r.get(
    '/api/hospitalizations/census/',
    {
      config: any,
      schema: {
        tags,
        summary: 'Beds per ward by state, occupancy rates and the number of stays waiting for a bed',
        response: { 200: ZCensus },
      },
    },
    async (request) => stays.census(contextOf(request)),
  );

  r.post(
    '/api/hospitalizations/beds/:id/status/',
    {
      config: policy(ACTION_GROUPS['hospitalization.bed']),
      schema: {
        tags,
        summary: 'Housekeeping of a freed bed: free → cleaning → free (occupied or out-of-service beds: 409)',
        params: ZIdParams,
        body: ZBedHousekeeping,
        response: { 200: ZBoardBed },
      },
    },
    async (request) => beds.housekeeping(contextOf(request), request.params.id, request.body.status),
  );

  r.get(
    '/api/hospitalizations/:id/',
    {
      config: policy(ACTION_GROUPS['hospitalization.read']),
      schema: {
        tags,
        summary: 'A stay: patient, bed, days, diagnoses, bed moves, discharge, what the caller may do',
        params: ZIdParams,
        response: { 200: ZHospitalizationDetail },
      },
    },
    async (request) => stays.read(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/hospitalizations/:id/',
    {
      config: policy(ACTION_GROUPS['hospitalization.admit']),
      schema: {
        tags,
        summary:
          "Changes an open stay's department, doctor, reason, provisional diagnosis or expected length",
        params: ZIdParams,
        body: ZHospitalizationUpdate,
        response: { 200: ZHospitalizationDetail },
      },
    },
    async (request) => stays.update(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/hospitalizations/:id/bed/',
    {
      config: policy(ACTION_GROUPS['hospitalization.bed']),
      schema: {
        tags,
        summary:
          'Puts the patient in a free bed, or moves them (the old bed goes to cleaning); a taken bed is a 409, a broken guardrail a 409 unless a charge nurse gives a reason',
        params: ZIdParams,
        body: ZBedAssign,
        response: { 201: ZHospitalizationDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return beds.assignBed(
        contextOf(request),
        request.params.id,
        request.body.bed,
        request.body.override_reason ?? null,
      );
    },
  );

  r.get(
    '/api/hospitalizations/:id/bed-check/',
    {
      config: policy(ACTION_GROUPS['hospitalization.bed']),
      schema: {
        tags,
        summary:
          "What placing the stay's patient in a bed would break (ward sex and ages, department, mixed room), before the placement is confirmed",
        params: ZIdParams,
        querystring: ZBedCheckQuery,
        response: { 200: ZBedCheck },
      },
    },
    async (request) => beds.checkBed(contextOf(request), request.params.id, request.query.bed),
  );

  r.post(
    '/api/hospitalizations/:id/discharge/',
    {
      config: policy(ACTION_GROUPS['hospitalization.discharge']),
      schema: {
        tags,
        summary: 'Ends the stay (home, against advice, transferred, deceased); the bed goes to cleaning',
        params: ZIdParams,
        body: ZDischargeCreate,
        response: { 200: ZHospitalizationDetail },
      },
    },
    async (request) => stays.discharge(contextOf(request), request.params.id, request.body),
  );

  r.get(
    '/api/hospitalizations/:id/notes/',
    {
      config: policy(ACTION_GROUPS['hospitalization.read']),
      schema: {
        tags,
        summary: 'Progress notes of a stay, newest first, each with its addenda',
        params: ZIdParams,
        querystring: ZPageQuery,
        response: { 200: ZProgressNoteList },
      },
    },
    async (request) => {
      const { rows, count } = await notes.notes(
        contextOf(request),
        request.params.id,
        request.query.page,
        request.query.page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/hospitalizations/:id/notes/',
    {
      config: policy(ACTION_GROUPS['hospitalization.note']),
      schema: {
        tags,
        summary:
          'Writes a signed progress note, or an addendum to one (the only writing once the stay is over)',
        params: ZIdParams,
        body: ZProgressNoteCreate,
        response: { 201: ZProgressNote },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return notes.addNote(contextOf(request), request.params.id, request.body);
    },
  );

  r.get(
    '/api/nurses/:nurse_id/patients/',
    {
      config: policy(['nurse', 'queue_manager', 'head_doctor', 'admin']),
      schema: {
        tags,
        summary: "A nurse's inpatients (the wards of her departments): bed, days, latest vitals, flags",
        params: ZNurseParams,
        querystring: ZNursePatientQuery,
        response: { 200: ZNursePatientList },
      },
    },
    async (request) => {
      const { rows, count } = await stays.nursePatients(
        contextOf(request),
        request.params.nurse_id,
        request.query.include_pending ?? false,
        request.query.page,
        request.query.page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  // Transfers ---------------------------------------------------------------------------------------------

  const ttags = ['transfers'];
  r.get(
    '/api/transfers/',
    {
      config: any,
      schema: {
        tags: ttags,
        summary: 'Transfers sent by the hospital or received from another hospital of the installation',
        querystring: ZTransferListQuery,
        response: { 200: ZTransferList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await moves.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/transfers/facilities/',
    {
      config: any,
      schema: {
        tags: ttags,
        summary: 'The other active hospitals of this installation (receivers of an external transfer)',
        response: { 200: ZFacilityList },
      },
    },
    async (request) => moves.facilities(contextOf(request)),
  );

  r.post(
    '/api/transfers/',
    {
      config: policy(ACTION_GROUPS['transfer.request']),
      schema: {
        tags: ttags,
        summary: 'Requests a transfer of an open stay: internal (department, ward) or external (facility)',
        body: ZTransferCreate,
        response: { 201: ZTransfer },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return moves.create(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/transfers/:id/',
    {
      config: any,
      schema: { tags: ttags, summary: 'A transfer', params: ZIdParams, response: { 200: ZTransfer } },
    },
    async (request) => moves.read(contextOf(request), request.params.id),
  );

  r.post(
    '/api/transfers/:id/accept/',
    {
      config: policy(ACTION_GROUPS['transfer.decide']),
      schema: {
        tags: ttags,
        summary: 'The receiving side accepts (its head or members, a head doctor, the receiving hospital)',
        params: ZIdParams,
        response: { 200: ZTransfer },
      },
    },
    async (request) => moves.accept(contextOf(request), request.params.id),
  );

  r.post(
    '/api/transfers/:id/reject/',
    {
      config: policy(ACTION_GROUPS['transfer.decide']),
      schema: {
        tags: ttags,
        summary: 'The receiving side rejects, with a reason',
        params: ZIdParams,
        body: ZTransferReject,
        response: { 200: ZTransfer },
      },
    },
    async (request) => moves.reject(contextOf(request), request.params.id, request.body.reason),
  );

  r.post(
    '/api/transfers/:id/complete/',
    {
      config: policy(ACTION_GROUPS['hospitalization.bed']),
      schema: {
        tags: ttags,
        summary: 'The patient has moved: into a bed of the receiving side (internal), or out of the hospital',
        params: ZIdParams,
        body: ZTransferComplete,
        response: { 200: ZTransfer },
      },
    },
    async (request) => moves.complete(contextOf(request), request.params.id, request.body.bed ?? null),
  );

  r.post(
    '/api/transfers/:id/cancel/',
    {
      config: policy(ACTION_GROUPS['transfer.request']),
      schema: {
        tags: ttags,
        summary: 'The sending side withdraws an open transfer',
        params: ZIdParams,
        response: { 200: ZTransfer },
      },
    },
    async (request) => moves.cancel(contextOf(request), request.params.id),
  );
}
