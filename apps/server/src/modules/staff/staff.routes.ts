import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  type TStaffDetail,
  type TStaffMailed,
  ZMembershipCreate,
  ZStaffDetail,
  ZStaffInvitation,
  ZStaffInvitationToken,
  ZStaffInvitationView,
  ZStaffInvite,
  ZStaffList,
  ZStaffMailed,
  ZStaffMembershipParams,
  ZStaffQuery,
} from '@greensen/shared/contracts/staff';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf, type ServiceContext } from '../../lib/context.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { ZNewPassword } from '../auth/password-policy.js';
import { StaffService } from './staff.service.js';

defineMessages({
  'staff.role_invalid': {
    fr: 'Rôle inconnu : choisissez un rôle de la liste (par exemple « NURSE »).',
    en: 'Unknown role: pick a role from the list (for example "NURSE").',
  },
  'staff.email_invalid': { fr: 'Saisissez une adresse e-mail valide.', en: 'Enter a valid email address.' },
  'staff.name_required': { fr: 'Ce champ est obligatoire.', en: 'This field is required.' },
  'staff.name_too_long': { fr: '100 caractères au plus.', en: '100 characters at most.' },
  'staff.department_unknown': {
    fr: "Ce service n'existe pas dans l'hôpital.",
    en: 'No such department in the hospital.',
  },
  'staff.department_inactive': { fr: 'Ce service est désactivé.', en: 'This department is deactivated.' },
  'staff.already_member': {
    fr: "Cette personne fait déjà partie du personnel de l'hôpital : ouvrez sa fiche pour lui ajouter un rôle.",
    en: "This person is already on the hospital's staff: open their page to add a role.",
  },
  'staff.membership_exists': {
    fr: 'Cette personne a déjà ce rôle dans ce service.',
    en: 'This person already has this role in this department.',
  },
  'staff.last_admin': {
    fr: "C'est le dernier administrateur actif de l'hôpital : nommez-en un autre d'abord.",
    en: 'This is the last active administrator of the hospital: appoint another one first.',
  },
  'staff.self': {
    fr: 'Vous ne pouvez pas désactiver votre propre compte.',
    en: 'You cannot deactivate your own account.',
  },
  'staff.inactive': {
    fr: "Ce compte est désactivé dans l'hôpital : réactivez-le d'abord.",
    en: 'This account is deactivated in the hospital: reactivate it first.',
  },
  'staff.mailed_invitation': {
    fr: 'Une nouvelle invitation a été envoyée : la personne ne l’avait pas encore acceptée.',
    en: 'A new invitation was sent: the person had not accepted it yet.',
  },
  'staff.invitation_sent': {
    fr: 'Invitation envoyée à {email} : le rôle prendra effet quand la personne l’acceptera.',
    en: 'Invitation sent to {email}: the role takes effect when the person accepts it.',
  },
  'staff.invitation_pending': {
    fr: 'Cette personne n’a pas encore accepté l’invitation de l’hôpital : renvoyez-la ou attendez son accord.',
    en: 'This person has not accepted the hospital’s invitation yet: send it again or wait for their consent.',
  },
  'staff.person_elsewhere': {
    fr: 'Cette personne travaille aussi dans un autre hôpital : seul un administrateur de chacun de ses hôpitaux, ou la personne elle-même, peut agir sur son compte (mot de passe, code PIN, désactivation du compte).',
    en: 'This person also works in another hospital: only an administrator of every one of their hospitals, or the person themself, may act on their account (password, PIN, account deactivation).',
  },
  'staff.invitation_invalid': {
    fr: 'Ce lien d’invitation n’est pas valide ou a expiré : demandez une nouvelle invitation à l’administrateur de l’hôpital.',
    en: 'This invitation link is not valid or has expired: ask the hospital’s administrator for a new invitation.',
  },
  'staff.password_required': {
    fr: 'Choisissez votre mot de passe pour accepter l’invitation.',
    en: 'Choose your password to accept the invitation.',
  },
  'staff.invitation_accepted': {
    fr: 'Invitation acceptée : connectez-vous pour travailler dans {hospital}.',
    en: 'Invitation accepted: sign in to work in {hospital}.',
  },
  'staff.mailed_reset': {
    fr: 'Un lien de réinitialisation du mot de passe a été envoyé.',
    en: 'A password reset link was sent.',
  },
});

/**
 * Staff of the current hospital (issue 15, decision 0020): administrators only. Like the audit trail it belongs
 * to no module, so that a production installation (whose module set has no `admin`) can staff itself.
 */
export async function staffRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new StaffService(app);
  const config = {
    access: { scope: 'hospital', module: null, roles: ACTION_GROUPS['staff.manage'] },
  } as const;
  const tags = ['staff'];

  r.get(
    '/api/admin/staff/',
    {
      config,
      schema: {
        tags,
        summary:
          "The hospital's staff: search (name, email), filters role, department, active, last sign-in; sorted by name or last sign-in",
        querystring: ZStaffQuery,
        response: { 200: ZStaffList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const found = await service.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, found.count, found.rows);
    },
  );

  r.post(
    '/api/admin/staff/',
    {
      config,
      schema: {
        tags,
        summary:
          'Invites a person by email with one role, accepted by the person through the mailed link; the same answer whether the address has an account or not',
        body: ZStaffInvite,
        response: { 201: ZStaffInvitation },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.invite(contextOf(request), request.body);
    },
  );

  // The invitation link (public: its token is the proof), issue 36 -------------------------------------------
  const invitationLimit = { access: { public: true }, rateLimit: { max: 60, timeWindow: 60_000 } } as const;
  r.post(
    '/api/auth/invitations/check/',
    {
      config: invitationLimit,
      schema: {
        tags,
        summary: 'What an invitation link invites to: hospital, role, whether a password is to be chosen',
        body: ZStaffInvitationToken,
        response: { 200: ZStaffInvitationView },
      },
    },
    async (request) => service.invitation(request.body.token),
  );
  r.post(
    '/api/auth/invitations/accept/',
    {
      config: invitationLimit,
      schema: {
        tags,
        summary:
          "Accepts an invitation: the hospital's memberships become active (an account without a password chooses it)",
        body: ZStaffInvitationToken.extend({ new_password: ZNewPassword.optional() }),
        response: { 200: z.object({ detail: z.string() }) },
      },
    },
    async (request) => {
      const view = await service.invitation(request.body.token);
      await service.accept(contextOf(request), request.body);
      return {
        detail: translate(requestLang(request), 'staff.invitation_accepted', { hospital: view.hospital }),
      };
    },
  );

  r.get(
    '/api/admin/staff/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'A person of the hospital with every membership there',
        params: ZIdParams,
        response: { 200: ZStaffDetail },
      },
    },
    async (request) => service.detail(contextOf(request), request.params.id),
  );

  r.post(
    '/api/admin/staff/:id/memberships/',
    {
      config,
      schema: {
        tags,
        summary: 'Gives the person one more role (in a department or the whole hospital)',
        params: ZIdParams,
        body: ZMembershipCreate,
        response: { 201: ZStaffDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.addMembership(contextOf(request), request.params.id, request.body);
    },
  );

  r.delete(
    '/api/admin/staff/:id/memberships/:membership_id/',
    {
      config,
      schema: {
        tags,
        summary: "Ends one membership; the hospital's last active administrator keeps theirs (409)",
        params: ZStaffMembershipParams,
        response: { 200: ZStaffDetail },
      },
    },
    async (request) =>
      service.removeMembership(contextOf(request), request.params.id, request.params.membership_id),
  );

  /** An action on one person: `POST /api/admin/staff/{id}/{path}/`, no body. */
  const action = (
    path: string,
    summary: string,
    response: typeof ZStaffDetail | typeof ZStaffMailed,
    run: (ctx: ServiceContext, id: string) => Promise<TStaffDetail | TStaffMailed>,
  ) =>
    r.post(
      `/api/admin/staff/:id/${path}/`,
      { config, schema: { tags, summary, params: ZIdParams, response: { 200: response } } },
      async (request) => run(contextOf(request), request.params.id),
    );

  action(
    'deactivate',
    'Deactivates the person in the hospital (the account too when no other hospital has them); every session ends',
    ZStaffDetail,
    (ctx, id) => service.deactivate(ctx, id),
  );
  action(
    'reactivate',
    'Reactivates the person and their memberships in the hospital',
    ZStaffDetail,
    (ctx, id) => service.reactivate(ctx, id),
  );
  action('reset-pin', "Clears the person's PIN and failed unlocks", ZStaffDetail, (ctx, id) =>
    service.resetPin(ctx, id),
  );
  action(
    'password-reset',
    'Mails a password reset link (a new invitation when no password was ever chosen)',
    ZStaffMailed,
    (ctx, id) => service.sendPasswordReset(ctx, id),
  );
}
