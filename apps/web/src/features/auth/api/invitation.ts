/**
 * A hospital's invitation link (issue 36, decision 0060): what it invites to, and its acceptance (public calls; the
 * token of the mailed link is the proof).
 */
import type { TStaffInvitationView } from '@greensen/shared/contracts/staff';
import { api } from '../../../lib/api-client';

export function checkInvitation(token: string): Promise<TStaffInvitationView> {
  return api.post<TStaffInvitationView>('auth/invitations/check/', { token }, { public: true });
}

export function acceptInvitation(input: {
  token: string;
  new_password?: string;
}): Promise<{ detail: string }> {
  return api.post<{ detail: string }>('auth/invitations/accept/', input, { public: true });
}
