/**
 * /templates "Templates (models)" (issue 19): the document models of the current hospital — Greensen's defaults
 * and the hospital's own — filtered by kind and language; a row opens /templates/{id}. Administrators and head
 * doctors also see "Adapt templates" (/admin/templates).
 */
import type { DocumentKind, DocumentLanguage } from '@greensen/shared/contracts/documents';
import { Anchor, Button, Group, Stack } from '@mantine/core';
import { IconEdit, IconFiles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { type TTemplateListItem, useTemplates } from '../../../lib/documents/api';
import { useDocumentRights } from '../../../lib/documents/rights';
import { formatDateTime } from '../../../lib/format';
import { useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import { useModuleAllowed } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { TemplateBadges } from '../components/TemplateBadges';
import { KindFilter, LanguageFilter } from '../components/TemplateFilters';

const PAGE_SIZE = 20;

export default function TemplatesPage() {
  const { t } = useTranslation('documents');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const { manageTemplates } = useDocumentRights();
  const adminAllowed = useModuleAllowed('admin');
  const { page, setPage, resetPage } = useListPage();
  const [kind, setKind] = useState<DocumentKind | null>(null);
  const [language, setLanguage] = useState<DocumentLanguage | null>(null);
  const query = useTemplates({ kind, language, page, pageSize: PAGE_SIZE });
  const open = (item: TTemplateListItem) => navigate(to(`/templates/${item.id}`));

  return (
    <Stack gap="md" data-testid="templates-page">
      <PageHeader
        title={t('routes:templates')}
        subtitle={t('templates.subtitle')}
        actions={
          <>
            <Button
              component={Link}
              to={to('/documents')}
              variant="default"
              leftSection={<IconFiles size={16} />}
            >
              {t('templates.documentsLink')}
            </Button>
            {manageTemplates && adminAllowed && (
              <Button component={Link} to={to('/admin/templates')} leftSection={<IconEdit size={16} />}>
                {t('templates.adminLink')}
              </Button>
            )}
          </>
        }
      />
      <Group gap="sm" wrap="wrap">
        <KindFilter value={kind} onChange={resetPage(setKind)} />
        <LanguageFilter value={language} onChange={resetPage(setLanguage)} />
      </Group>
      <PagedQueryTable<TTemplateListItem>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={t('templates.empty')}
        onRowClick={({ record }) => open(record)}
        columns={[
          {
            accessor: 'name',
            title: t('templates.columns.name'),
            render: (item) => (
              <Anchor component={Link} to={to(`/templates/${item.id}`)} size="sm" fw={600}>
                {item.name}
              </Anchor>
            ),
          },
          { accessor: 'kind', title: t('templates.columns.kind'), render: (item) => t(`kind.${item.kind}`) },
          {
            accessor: 'language',
            title: t('templates.columns.language'),
            render: (item) => t(`language.${item.language}`),
          },
          { accessor: 'paper', title: t('templates.columns.paper') },
          {
            accessor: 'origin',
            title: t('templates.columns.status'),
            render: (item) => <TemplateBadges template={item} />,
          },
          {
            accessor: 'updated_at',
            title: t('templates.columns.updated'),
            render: (item) => formatDateTime(item.updated_at),
          },
        ]}
      />
    </Stack>
  );
}
