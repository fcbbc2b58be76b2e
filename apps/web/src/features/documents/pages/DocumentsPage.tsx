/**
 * /documents (issue 19): the hospital's documents — those issued (certificates, prescriptions, reports… with their
 * number and verification code) and those uploaded to patient records — each a tab with its filters and pages.
 */
import {
  DOCUMENT_KINDS,
  type DocumentKind,
  PATIENT_DOCUMENT_CATEGORIES,
  type PatientDocumentCategory,
} from '@greensen/shared/domain/documents';
import { Group, Select, Stack, Tabs } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileCertificate, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateFilter } from '../../../lib/date-filter';
import { useDocuments, usePatientDocuments } from '../../../lib/documents/api';
import { IssuedDocumentsTable, UploadedDocumentsTable } from '../../../lib/documents/DocumentLists';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import { DOCUMENTS_PAGE_SIZE, ISSUED_FIRST_FILTERS } from './documents-first';

const PAGE_SIZE = DOCUMENTS_PAGE_SIZE;

/** The "from" and "to" days of a list. */
function DateRange(props: {
  from: string;
  to: string;
  onFrom: (v: string) => void;
  onTo: (v: string) => void;
}) {
  const { t } = useTranslation('documents');
  return (
    <>
      <DateFilter label={t('list.filters.from')} value={props.from} onChange={props.onFrom} w={160} />
      <DateFilter label={t('list.filters.to')} value={props.to} onChange={props.onTo} w={160} />
    </>
  );
}

function IssuedTab() {
  const { t } = useTranslation('documents');
  const { page, setPage, resetPage } = useListPage();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [kind, setKind] = useState<DocumentKind | null>(ISSUED_FIRST_FILTERS.kind);
  const [status, setStatus] = useState<'all' | 'valid' | 'cancelled'>(ISSUED_FIRST_FILTERS.status);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = useDocuments({
    search: q || null,
    kind,
    status,
    dateFrom: from || null,
    dateTo: to || null,
    page,
    pageSize: ISSUED_FIRST_FILTERS.pageSize,
  });
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchFilter
          placeholder={t('list.filters.search')}
          aria-label={t('list.filters.search')}
          value={search}
          onChange={resetPage(setSearch)}
          w={240}
        />
        <Select
          aria-label={t('list.filters.kind')}
          placeholder={t('list.filters.allKinds')}
          data={DOCUMENT_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))}
          value={kind}
          onChange={(value) => resetPage(setKind)(value as DocumentKind | null)}
          clearable
          w={230}
        />
        <Select
          aria-label={t('list.filters.status')}
          data={[
            { value: 'all', label: t('list.filters.allStatuses') },
            { value: 'valid', label: t('list.status.valid') },
            { value: 'cancelled', label: t('list.status.cancelled') },
          ]}
          value={status}
          allowDeselect={false}
          onChange={(value) => value && resetPage(setStatus)(value as typeof status)}
          w={150}
        />
        <DateRange from={from} to={to} onFrom={resetPage(setFrom)} onTo={resetPage(setTo)} />
      </Group>
      <IssuedDocumentsTable query={query} page={page} onPageChange={setPage} pageSize={PAGE_SIZE} />
    </Stack>
  );
}

function UploadedTab() {
  const { t } = useTranslation('documents');
  const { page, setPage, resetPage } = useListPage();
  const [category, setCategory] = useState<PatientDocumentCategory | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = usePatientDocuments({
    category,
    dateFrom: from || null,
    dateTo: to || null,
    page,
    pageSize: PAGE_SIZE,
  });
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          aria-label={t('list.filters.category')}
          placeholder={t('list.filters.allCategories')}
          data={PATIENT_DOCUMENT_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))}
          value={category}
          onChange={(value) => resetPage(setCategory)(value as PatientDocumentCategory | null)}
          clearable
          w={230}
        />
        <DateRange from={from} to={to} onFrom={resetPage(setFrom)} onTo={resetPage(setTo)} />
      </Group>
      <UploadedDocumentsTable query={query} page={page} onPageChange={setPage} pageSize={PAGE_SIZE} />
    </Stack>
  );
}

export default function DocumentsPage() {
  const { t } = useTranslation('documents');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'uploaded' ? 'uploaded' : 'issued';
  return (
    <Stack gap="md" data-testid="documents-page">
      <PageHeader title={t('list.title')} subtitle={t('list.subtitle')} />
      <Tabs
        value={tab}
        onChange={(value) => setParams(value === 'uploaded' ? { tab: 'uploaded' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="issued" leftSection={<IconFileCertificate size={16} />}>
            {t('list.tabs.issued')}
          </Tabs.Tab>
          <Tabs.Tab value="uploaded" leftSection={<IconUpload size={16} />}>
            {t('list.tabs.uploaded')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="issued" pt="md">
          <IssuedTab />
        </Tabs.Panel>
        <Tabs.Panel value="uploaded" pt="md">
          <UploadedTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
