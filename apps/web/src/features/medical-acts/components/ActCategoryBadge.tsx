import type { ActCategory } from '@greensen/shared/contracts/medical-acts';
import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ActCategory, MantineColor> = {
  consultation: 'blue',
  procedure: 'grape',
  imaging: 'indigo',
  laboratory: 'cyan',
  surgery: 'red',
  delivery: 'pink',
  bed_day: 'teal',
  nursing: 'green',
  medicine: 'orange',
  other: 'gray',
};

export function ActCategoryBadge({ category }: { category: ActCategory }) {
  const { t } = useTranslation('medical_acts');
  return (
    <Badge variant="light" color={COLORS[category]} style={{ whiteSpace: 'nowrap' }}>
      {t(`categories.${category}`)}
    </Badge>
  );
}
