/** A body the server refused: the line (and column) and the reason, as the server words it. */
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TemplateProblem } from '../../../lib/documents/api';

export function TemplateProblemAlert({ problem }: { problem: TemplateProblem }) {
  const { t } = useTranslation('documents');
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert" data-testid="template-problem">
      {problem.line
        ? t('templates.admin.invalid', { line: problem.line, reason: problem.message })
        : t('templates.admin.invalidNoLine', { reason: problem.message })}
    </Alert>
  );
}
