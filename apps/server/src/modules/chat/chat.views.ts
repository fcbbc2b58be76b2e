import type { TChatConversation, TChatMessage, TChatPatientCard } from '@greensen/shared/contracts/chat';
import { canAccessModule } from '@greensen/shared/domain/access';
import type { AppEnvironment, ModuleName } from '@greensen/shared/domain/modules';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { type DashboardGroup, roleGroup } from '@greensen/shared/domain/roles';
import { fullName } from '../../lib/clinical.js';
import { badRequest } from '../../lib/errors.js';
import { type ConversationRow, type MessageRow, toIso, toIsoOrNull } from './chat.repository.js';

// The messaging rows as the API shows them to one reader (issue 23, decision 0033), and the page cursor.

/** Groups whose members may open a patient's clinical record (the inpatient clinical page's readers). */
const RECORD_READERS: readonly DashboardGroup[] = ACTION_GROUPS['hospitalization.read'];

/**
 * Whether a reader with these roles in the hospital sees a referenced patient's card (decision 0033): the
 * patients module open to them and a clinical reader's group; secretaries never (as for consultations).
 */
export function mayReadPatientCard(
  roleCodes: readonly string[],
  env: { environment: AppEnvironment; extraModules: readonly ModuleName[] },
): boolean {
  const groups = roleCodes.map(roleGroup);
  if (groups.includes('secretary')) return false;
  if (!groups.some((g) => RECORD_READERS.includes(g))) return false;
  return canAccessModule({
    moduleName: 'patients',
    environment: env.environment,
    extraModules: env.extraModules,
    user: { active_roles: roleCodes.map((role_code) => ({ role_code })) },
  }).allowed;
}

const excerptOf = (body: string) => (body.length > 120 ? `${body.slice(0, 117)}…` : body);

/** The API shape of a message for one reader (`cardAllowed`: whether they may see a patient's card). */
export function toMessage(r: MessageRow, cardAllowed: boolean): TChatMessage {
  const deleted = r.deleted_at !== null;
  let patient: TChatPatientCard | null = null;
  if (r.p_id && !deleted) {
    patient = cardAllowed
      ? {
          restricted: false,
          id: r.p_id,
          full_name: fullName(r.p_first_name, r.p_last_name),
          record_number: r.p_record_number ?? '',
        }
      : { restricted: true };
  }
  return {
    id: r.id,
    conversation: r.conversation_id,
    author: { id: r.author_id, full_name: r.author_name },
    body: deleted ? '' : r.body,
    reply_to: r.r_id
      ? {
          id: r.r_id,
          author: r.r_author ?? '',
          excerpt: r.r_deleted_at ? '' : excerptOf(r.r_body ?? ''),
          deleted: r.r_deleted_at !== null,
        }
      : null,
    patient,
    system: r.event && r.e_id ? { event: r.event, user: { id: r.e_id, full_name: r.e_name ?? '' } } : null,
    attachment:
      r.attachment_type && !deleted
        ? {
            name: r.attachment_name ?? '',
            content_type: r.attachment_type,
            size_bytes: Number(r.attachment_size),
            viewable: r.attachment_type !== 'image/heic',
          }
        : null,
    created_at: toIso(r.created_at),
    edited_at: toIsoOrNull(r.edited_at),
    deleted_at: toIsoOrNull(r.deleted_at),
  };
}

export function toConversation(r: ConversationRow): TChatConversation {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title ?? '',
    department: r.department_id,
    unread_count: Number(r.unread),
    last_message:
      r.lm_created_at === null
        ? null
        : {
            author: r.lm_author ?? '',
            excerpt: r.lm_deleted_at ? '' : excerptOf(r.lm_body ?? ''),
            created_at: toIso(r.lm_created_at),
          },
    last_message_at: toIso(r.last_message_at),
  };
}

/** `created_at|id` of a message, as an opaque cursor. */
export const encodeCursor = (r: MessageRow) =>
  Buffer.from(`${toIso(r.created_at)}|${r.id}`, 'utf8').toString('base64url');
export function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw badRequest({ cursor: ['chat.cursor_invalid'] });
  }
  return { at, id };
}
