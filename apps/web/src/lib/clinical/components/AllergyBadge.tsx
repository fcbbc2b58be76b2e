/**
 * Allergies, shown prominently wherever a patient appears (issue 6): a red badge in lists and queues,
 * a red alert on the record and the visit pages. A patient nobody asked is never shown as having no known
 * allergy: "Allergies non renseignées" until someone records the answer (issue 25).
 */
import { Alert, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconHelpCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function AllergyBadge({
  allergies,
  size = 'sm',
}: {
  allergies: readonly string[];
  size?: 'xs' | 'sm' | 'md';
}) {
  const { t } = useTranslation('patients');
  if (allergies.length === 0) return null;
  const list = allergies.join(', ');
  return (
    <Tooltip label={`${t('allergies.label')} : ${list}`} multiline maw={320} withArrow>
      <Badge
        color="red"
        variant="filled"
        size={size}
        leftSection={<IconAlertTriangle size={12} />}
        aria-label={`${t('allergies.label')} : ${list}`}
        data-testid="allergy-badge"
        style={{ maxWidth: 220 }}
      >
        {allergies.length === 1 ? allergies[0] : t('allergies.count', { count: allergies.length })}
      </Badge>
    </Tooltip>
  );
}

export function AllergyAlert({
  allergies,
  recorded,
}: {
  allergies: readonly string[];
  /** Whether someone asked (a list implies it): false shows "not asked", never "no known allergy". */
  recorded: boolean;
}) {
  const { t } = useTranslation('patients');
  if (allergies.length === 0 && !recorded) {
    return (
      <Group gap={6} data-testid="allergies-not-asked">
        <IconHelpCircle size={18} color="var(--mantine-color-orange-7)" aria-hidden />
        <Text size="sm" fw={600} c="orange">
          {t('allergies.notAsked')}
        </Text>
      </Group>
    );
  }
  if (allergies.length === 0) {
    return (
      <Group gap={6} data-testid="allergies-none">
        <Text size="sm" c="dimmed">
          {t('allergies.none')}
        </Text>
      </Group>
    );
  }
  return (
    <Alert
      color="red"
      variant="filled"
      icon={<IconAlertTriangle size={20} />}
      title={t('allergies.alertTitle')}
      role="alert"
      data-testid="allergy-alert"
    >
      {allergies.join(' · ')}
    </Alert>
  );
}
