/**
 * What the signed-in user may do with documents in the current hospital (the server enforces the same lists of
 * the contracts): adapt the models (administrators, head doctors), and which kinds they may issue from a source.
 */
import {
  DOCUMENT_KINDS,
  type DocumentKind,
  type DocumentSourceType,
  KIND_ISSUERS,
  KIND_SOURCES,
  TEMPLATE_MANAGERS,
} from '@greensen/shared/domain/documents';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import { usePermissions } from '../permissions';

export function mayManageTemplates(groups: readonly DashboardGroup[]): boolean {
  return groups.some((group) => TEMPLATE_MANAGERS.includes(group));
}

/** The kinds printed from this source that one of the user's groups issues, in the contract's order. */
export function issuableKinds(groups: readonly DashboardGroup[], source: DocumentSourceType): DocumentKind[] {
  return DOCUMENT_KINDS.filter(
    (kind) =>
      KIND_SOURCES[kind].includes(source) && KIND_ISSUERS[kind].some((group) => groups.includes(group)),
  );
}

export function useDocumentRights() {
  const { groups } = usePermissions();
  return {
    groups,
    manageTemplates: mayManageTemplates(groups),
    kindsFor: (source: DocumentSourceType) => issuableKinds(groups, source),
  };
}
