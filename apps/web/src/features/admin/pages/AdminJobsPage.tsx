/** /admin/jobs: the background jobs panel on its own page (the administration page hosts it in a tab too). */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../lib/page-states';
import { JobsPanel } from '../components/JobsPanel';

export default function AdminJobsPage() {
  const { t } = useTranslation('jobs');
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <JobsPanel />
    </Stack>
  );
}
