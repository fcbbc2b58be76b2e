/** The origin (Greensen's or the hospital's) and the state (active, archived) of a document model. */
import type { TDocumentTemplate } from '@greensen/shared/contracts/documents';
import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function TemplateBadges({
  template,
}: {
  template: Pick<TDocumentTemplate, 'shipped' | 'active' | 'archived'>;
}) {
  const { t } = useTranslation('documents');
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="outline" color={template.shipped ? 'gray' : 'greensen'} size="sm">
        {template.shipped ? t('templates.origin.default') : t('templates.origin.hospital')}
      </Badge>
      {template.archived ? (
        <Badge color="gray" size="sm">
          {t('templates.status.archived')}
        </Badge>
      ) : template.active ? (
        <Badge color="green" size="sm" data-testid="template-active">
          {t('templates.status.active')}
        </Badge>
      ) : null}
    </Group>
  );
}
