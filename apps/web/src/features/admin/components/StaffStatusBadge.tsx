/** A person's state in the hospital: active (green), invited (blue: the link was not followed yet), inactive. */
import type { StaffStatus } from '@greensen/shared/contracts/staff';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<StaffStatus, string> = { active: 'green', invited: 'blue', inactive: 'gray' };

export function StaffStatusBadge({ status }: { status: StaffStatus }) {
  const { t } = useTranslation('admin');
  return (
    <Badge color={COLORS[status]} variant="light" size="sm" style={{ minWidth: 'max-content' }}>
      {t(`staff.status.${status}`)}
    </Badge>
  );
}
