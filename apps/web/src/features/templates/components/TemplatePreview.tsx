/**
 * The server's rendering of a model body with demo data, shown as paper in a sandboxed iframe (HtmlPaper). A body
 * the server refuses shows the line and the reason instead.
 */
import type { TDocumentTemplate, TTemplatePreview } from '@greensen/shared/contracts/documents';
import { Alert, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { templateProblem, useTemplatePreview } from '../../../lib/documents/api';
import { HtmlPaper } from '../../../lib/documents/HtmlPaper';
import { TemplateProblemAlert } from './TemplateProblemAlert';

/** What the preview renders for a stored model: its own body, kind, language and paper. */
export function previewOf(template: TDocumentTemplate): TTemplatePreview {
  return { kind: template.kind, language: template.language, paper: template.paper, body: template.body };
}

export function TemplatePreview({ input }: { input: TTemplatePreview }) {
  const { t } = useTranslation('documents');
  const query = useTemplatePreview(input);
  const problem = query.isError && isApiError(query.error) ? templateProblem(query.error.body) : null;
  return (
    <Stack gap="xs" data-testid="template-preview">
      <Text size="xs" c="dimmed">
        {t('templates.detail.previewHint')}
      </Text>
      {problem ? (
        <TemplateProblemAlert problem={problem} />
      ) : query.isError ? (
        <Alert color="red">{t('templates.detail.previewError')}</Alert>
      ) : query.data ? (
        <HtmlPaper html={query.data.html} lang={input.language} title={t('templates.detail.preview')} />
      ) : (
        <Skeleton h={320} />
      )}
    </Stack>
  );
}
