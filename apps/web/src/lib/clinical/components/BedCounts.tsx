/**
 * Bed states and their colours, shared by the structure pages (issue 15) and the inpatient bed board and
 * census (issue 17): free green, occupied red, cleaning yellow, out of service gray.
 */
import { BED_STATUSES, type BedStatus } from '@greensen/shared/domain/beds';
import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const BED_COLORS: Record<BedStatus, string> = {
  free: 'green',
  occupied: 'red',
  cleaning: 'yellow',
  out_of_service: 'gray',
};

/** The beds by status; statuses with no bed are left out (free beds are always said, even none). */
export function BedCounts({ beds }: { beds: Record<BedStatus, number> }) {
  const { t } = useTranslation('structure');
  return (
    <Group gap={4} wrap="wrap">
      {BED_STATUSES.filter((status) => status === 'free' || beds[status] > 0).map((status) => (
        <Badge key={status} color={BED_COLORS[status]} variant="light" size="sm">
          {t(`beds.count.${status}`, { count: beds[status] })}
        </Badge>
      ))}
    </Group>
  );
}
