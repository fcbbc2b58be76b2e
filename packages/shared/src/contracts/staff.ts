/**
 * Staff of a hospital (issue 15, docs/decisions/0019): the administrators' list of the people working in the
 * current hospital, their memberships (hospital, department, role code of the specification's §6 table), the
 * invitation by email, deactivation and the account actions (PIN lock, password reset).
 */
import { z } from 'zod';
import { ROLE_CODES, type RoleCode } from '../domain/roles.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

/** When the person last signed in: never, in the last 7 or 30 days, or longer ago. */
export const STAFF_LAST_LOGIN = ['never', 'within_7d', 'within_30d', 'over_30d'] as const;
export type StaffLastLogin = (typeof STAFF_LAST_LOGIN)[number];

/**
 * The person's state in the current hospital: `invited` (the invitation link was not followed yet), `active`,
 * or `inactive` (the account is disabled, or no membership in this hospital is active).
 */
export const STAFF_STATUSES = ['active', 'invited', 'inactive'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const STAFF_ORDERINGS = ['name', '-name', 'last_login', '-last_login'] as const;

/** A role code of the specification's table (§6), as written there (`NURSE`, `SAGE_FEMME`…). */
export const ZRoleCode = z.enum(ROLE_CODES as [RoleCode, ...RoleCode[]], { error: 'staff.role_invalid' });

export const ZStaffQuery = ZPageQuery.extend({
  /** Name or email, accents and case ignored. */
  ...zSearch(),
  role: ZRoleCode.optional(),
  department: z.uuid().optional(),
  active: zQueryBoolean.optional(),
  last_login: z.enum(STAFF_LAST_LOGIN).optional(),
  ordering: z.enum(STAFF_ORDERINGS).default('name'),
});
export type TStaffQuery = z.input<typeof ZStaffQuery>;

const ZDepartmentName = z.object({ id: z.uuid(), code: z.string(), name: z.string() });

/** A membership of the person in the current hospital. */
export const ZStaffMembership = z.object({
  id: z.uuid(),
  role_code: z.string(),
  department: ZDepartmentName.nullable(),
  is_active: z.boolean(),
  created_at: zDateTime,
});
export type TStaffMembership = z.infer<typeof ZStaffMembership>;

export const ZStaffMember = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  status: z.enum(STAFF_STATUSES),
  last_login_at: zDateTime.nullable(),
  /** The active memberships in this hospital, oldest first (the first one drives the dashboard). */
  roles: z.array(z.object({ role_code: z.string(), department: ZDepartmentName.nullable() })),
});
export type TStaffMember = z.infer<typeof ZStaffMember>;

export const ZStaffList = zPage(ZStaffMember);
export type TStaffList = z.infer<typeof ZStaffList>;

export const ZStaffDetail = ZStaffMember.extend({
  language_preference: z.enum(['fr', 'en']),
  /** Whether a PIN unlocks the person's locked sessions. */
  has_pin: z.boolean(),
  /** Wrong PINs or passwords in a row on a locked session (reset by an administrator or a success). */
  failed_unlock_attempts: z.number().int(),
  created_at: zDateTime,
  /** Every membership in this hospital, active or not, oldest first. */
  memberships: z.array(ZStaffMembership),
});
export type TStaffDetail = z.infer<typeof ZStaffDetail>;

const ZName = z.string().trim().min(1, 'staff.name_required').max(100, 'staff.name_too_long');

export const ZMembershipCreate = z.object({
  role_code: ZRoleCode,
  /** A department of the hospital, or none (the whole hospital). */
  department: z.uuid().nullish(),
});
export type TMembershipCreate = z.input<typeof ZMembershipCreate>;

export const ZStaffInvite = ZMembershipCreate.extend({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'staff.email_invalid')
    .regex(z.regexes.email, 'staff.email_invalid'),
  first_name: ZName,
  last_name: ZName,
  /** The language of the invitation mail and of the account. */
  language_preference: z.enum(['fr', 'en']).default('fr'),
});
export type TStaffInvite = z.input<typeof ZStaffInvite>;

/**
 * The answer of an invitation (issue 36, decision 0060): the invitation as typed and the membership it made (`id`),
 * the same whether the address already had an account or not — nothing of the account is told. The membership
 * waits until the person accepts it by the mailed link.
 */
export const ZStaffInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role_code: z.string(),
  department: z.uuid().nullable(),
  mailed: z.literal('invitation'),
  detail: z.string(),
});
export type TStaffInvitation = z.infer<typeof ZStaffInvitation>;

/** The invitation link's token (public routes: what it invites to, and its acceptance). */
export const ZStaffInvitationToken = z.object({ token: z.string().min(1).max(512) });

/** What an invitation link shows its recipient: the hospital, the role, and whether a password is to be chosen. */
export const ZStaffInvitationView = z.object({
  hospital: z.string(),
  role_code: z.string(),
  email: z.string(),
  needs_password: z.boolean(),
});
export type TStaffInvitationView = z.infer<typeof ZStaffInvitationView>;

export const ZStaffMembershipParams = z.object({ id: z.uuid(), membership_id: z.uuid() });

/** What a password reset sent: a new invitation (the person never chose a password) or a reset link. */
export const ZStaffMailed = z.object({ mailed: z.enum(['invitation', 'reset']), detail: z.string() });
export type TStaffMailed = z.infer<typeof ZStaffMailed>;
