/** Statuses of stays and transfers with their colours, and where a patient lies (ward · room · bed). */
import type {
  HospitalizationStatus,
  TBedPlace,
  TransferStatus,
} from '@greensen/shared/contracts/hospitalizations';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../../lib/theme';

export const STAY_COLORS: Record<HospitalizationStatus, string> = {
  pending_bed: 'orange',
  admitted: 'blue',
  discharged: 'green',
  transferred_out: 'cyan',
  deceased: 'dark',
};

export const TRANSFER_COLORS: Record<TransferStatus, string> = {
  requested: 'yellow',
  accepted: 'blue',
  rejected: 'red',
  completed: 'green',
  cancelled: 'gray',
};

export function StayStatusBadge({
  status,
  size = 'sm',
}: {
  status: HospitalizationStatus;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('hospitalizations');
  return (
    <Badge
      color={STAY_COLORS[status]}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="stay-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

export function TransferStatusBadge({ status, size = 'sm' }: { status: TransferStatus; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation('hospitalizations');
  return (
    <Badge color={TRANSFER_COLORS[status]} variant="light" size={size} styles={NEVER_CUT}>
      {t(`transfers.status.${status}`)}
    </Badge>
  );
}

/** "Médecine A · Ch. 12 · Lit B", or "En attente de lit" for a stay still open without one. */
export function placeLabel(
  place: TBedPlace | null,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (!place) return t('place.none');
  return t('place.full', { ward: place.ward.name, room: place.room.name, bed: place.bed.label });
}

export function PlaceText({ place, status }: { place: TBedPlace | null; status: HospitalizationStatus }) {
  const { t } = useTranslation('hospitalizations');
  if (place) return <Text size="sm">{placeLabel(place, t)}</Text>;
  return (
    <Text
      size="sm"
      c={status === 'pending_bed' ? 'orange' : 'dimmed'}
      fw={status === 'pending_bed' ? 600 : undefined}
    >
      {status === 'pending_bed' ? t('place.pending') : '—'}
    </Text>
  );
}
