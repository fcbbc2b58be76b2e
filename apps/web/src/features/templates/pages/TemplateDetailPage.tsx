/**
 * /templates/{id} "Template Details" (issue 19): the model's kind, language, paper, origin and state, its body,
 * and a live preview rendered by the server with demo data (administrators and head doctors: the preview route
 * is theirs).
 */
import { Button, Code, Grid, Group, Paper, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useTemplate } from '../../../lib/documents/api';
import { useDocumentRights } from '../../../lib/documents/rights';
import { formatDateTime } from '../../../lib/format';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { useModuleAllowed } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { TemplateBadges } from '../components/TemplateBadges';
import { previewOf, TemplatePreview } from '../components/TemplatePreview';

export default function TemplateDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('documents');
  const to = useLocalizedPath();
  const { manageTemplates } = useDocumentRights();
  const adminAllowed = useModuleAllowed('admin');
  const query = useTemplate(id);
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 320]} testId="template-loading" />;
  const template = query.data;
  return (
    <Stack gap="md" data-testid="template-detail">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            {t('routes:templateDetail')}
          </Text>
          <Group gap="xs">
            <Title order={2}>{template.name}</Title>
            <TemplateBadges template={template} />
          </Group>
        </div>
        <Group gap="xs">
          <Button
            component={Link}
            to={to('/templates')}
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
          >
            {t('templates.detail.back')}
          </Button>
          {manageTemplates && adminAllowed && (
            <Button
              component={Link}
              to={to(`/admin/templates?id=${template.id}`)}
              leftSection={<IconEdit size={16} />}
            >
              {t('templates.detail.editAdmin')}
            </Button>
          )}
        </Group>
      </Group>
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
          <DetailField label={t('templates.columns.kind')}>{t(`kind.${template.kind}`)}</DetailField>
          <DetailField label={t('templates.columns.language')}>
            {t(`language.${template.language}`)}
          </DetailField>
          <DetailField label={t('templates.columns.paper')}>{template.paper}</DetailField>
          <DetailField label={t('templates.detail.editableOnIssue')}>
            {template.editable_on_issue ? t('templates.detail.yes') : t('templates.detail.no')}
          </DetailField>
          <DetailField label={t('templates.detail.version')}>{template.version}</DetailField>
          <DetailField label={t('templates.detail.updatedBy')}>
            {formatDateTime(template.updated_at)}
            {template.updated_by ? ` · ${template.updated_by.full_name}` : ''}
          </DetailField>
        </SimpleGrid>
        {template.description && (
          <Text size="sm" mt="sm">
            {template.description}
          </Text>
        )}
      </Paper>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder radius="md" p="md">
            <Title order={4} mb="xs">
              {t('templates.detail.body')}
            </Title>
            <ScrollArea.Autosize mah={560}>
              <Code block data-testid="template-body" style={{ whiteSpace: 'pre-wrap' }}>
                {template.body}
              </Code>
            </ScrollArea.Autosize>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder radius="md" p="md">
            <Title order={4} mb="xs">
              {t('templates.detail.preview')}
            </Title>
            {manageTemplates ? (
              <TemplatePreview input={previewOf(template)} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('templates.detail.previewManagers')}
              </Text>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
