/**
 * PATCH /api/consultations/{id}/: a draft save of some sections with the version it is based on. A stale
 * version is a 409 `{code: 'stale_version', version}` (see `isStaleVersion`). Used by the autosave hook.
 */
import type { TConsultationDetail, TConsultationUpdate } from '@greensen/shared/contracts/consultations';
import { api, isApiError } from '../../../lib/api-client';

export function saveConsultationDraft(id: string, body: TConsultationUpdate): Promise<TConsultationDetail> {
  return api.patch<TConsultationDetail>(`consultations/${id}/`, body);
}

/** The current version carried by a stale-version 409, or null for any other error. */
export function staleVersionOf(error: unknown): number | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const body = error.body;
  if (body && typeof body === 'object' && body.code === 'stale_version' && typeof body.version === 'number')
    return body.version;
  return null;
}
