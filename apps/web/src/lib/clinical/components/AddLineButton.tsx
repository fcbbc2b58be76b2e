/** "Ajouter une ligne" under the lines of a form with several lines (prescription, stock receipt). */
import { Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function AddLineButton({ onAdd, count, max }: { onAdd: () => void; count: number; max: number }) {
  const { t } = useTranslation('pharmacy');
  return (
    <Group>
      <Button
        variant="light"
        size="xs"
        leftSection={<IconPlus size={14} />}
        onClick={onAdd}
        disabled={count >= max}
      >
        {t('form.addLine')}
      </Button>
    </Group>
  );
}
