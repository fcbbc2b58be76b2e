/** The pharmacy the page shows: the user's own pharmacies first ("Mes pharmacies"), then the others. */
import { Select } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TPharmacy } from '../api/pharmacies';

export function PharmacyPicker({
  pharmacies,
  value,
  onChange,
}: {
  pharmacies: readonly TPharmacy[];
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation('pharmacy');
  const mine = pharmacies.filter((p) => p.member);
  const others = pharmacies.filter((p) => !p.member);
  const option = (p: TPharmacy) => ({ value: p.id, label: p.name });
  return (
    <Select
      label={t('picker.label')}
      leftSection={<IconBuildingStore size={16} />}
      allowDeselect={false}
      w={{ base: '100%', sm: 320 }}
      data={[
        ...(mine.length > 0 ? [{ group: t('picker.mine'), items: mine.map(option) }] : []),
        ...(others.length > 0 ? [{ group: t('picker.others'), items: others.map(option) }] : []),
      ]}
      value={value}
      onChange={(id) => id && onChange(id)}
      data-testid="pharmacy-picker"
    />
  );
}
