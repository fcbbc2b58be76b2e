/**
 * /medications (Médicaments, outside the module table like /transfers): the medication reference — search by INN
 * (French or English, accents and typos tolerated by the server), brand or ATC code, and an ATC filter — each
 * medicine with its group, presentations and whether it is on the essential list; a row opens its page.
 */
import type { TMedication } from '@greensen/shared/contracts/pharmacy';
import { Anchor, Badge, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMedications } from '../../../lib/clinical/api/medications';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { uiLanguage } from '../../../lib/i18n';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { MEDICATIONS_FIRST_INPUTS, MEDICATIONS_PAGE_SIZE } from './medications-first';

export default function MedicationsPage() {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const lang = uiLanguage();
  const { page, setPage, resetPage } = useListPage();
  const [search, setSearch] = useState(MEDICATIONS_FIRST_INPUTS.search);
  const [atc, setAtc] = useState(MEDICATIONS_FIRST_INPUTS.atc);
  const [filters] = useDebouncedValue({ search, atc }, 300);
  const query = useMedications({ ...filters, page, pageSize: MEDICATIONS_PAGE_SIZE });
  const path = (m: TMedication) => to(`/pharmacy/medications/${m.id}`);

  return (
    <Stack gap="md">
      <PageHeader title={t('medications.title')} subtitle={t('medications.subtitle')} />
      <Group gap="sm" wrap="wrap">
        <SearchFilter
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          value={search}
          onChange={resetPage(setSearch)}
          style={{ flex: 1, minWidth: 240 }}
        />
        <TextInput
          placeholder={t('medications.atc')}
          aria-label={t('medications.atc')}
          w={160}
          value={atc}
          onChange={(event) => resetPage(setAtc)(event.currentTarget.value.toUpperCase())}
        />
      </Group>
      <PagedQueryTable<TMedication>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={MEDICATIONS_PAGE_SIZE}
        noRecordsText={t('medications.empty')}
        onRowClick={({ record }) => navigate(path(record))}
        columns={[
          {
            accessor: 'inn',
            title: t('medications.inn'),
            render: (m) => (
              <div>
                <Group gap={6}>
                  <Anchor component={Link} to={path(m)} fw={600} size="sm">
                    {medicationName(m, lang)}
                  </Anchor>
                  {m.essential && (
                    <Badge size="xs" color="teal" variant="light">
                      {t('medications.essential')}
                    </Badge>
                  )}
                </Group>
                {m.brands.length > 0 && (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {m.brands.join(', ')}
                  </Text>
                )}
              </div>
            ),
          },
          { accessor: 'atc_code', title: t('medications.atc'), render: (m) => m.atc_code ?? '—' },
          {
            accessor: 'group',
            title: t('medications.group'),
            render: (m) => (lang === 'en' ? m.group_en : m.group_fr),
          },
          {
            accessor: 'presentations',
            title: t('medications.presentations'),
            render: (m) => (
              <Text size="sm" lineClamp={2}>
                {m.presentations.map(presentationLabel).join(' · ')}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
