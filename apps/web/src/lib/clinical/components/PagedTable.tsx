/**
 * A server-paginated DataTable with the app's common setup: hover highlight, spacing, the page's
 * records and count, the translated pagination and loading texts.
 */
import { Paper } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableProps } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { LoadError, usePaginationText } from '../../page-states';
import { paginationControlProps } from '../../theme';

export interface PagedTableProps<T> {
  /** The current page as returned by the API (undefined while loading). */
  data: { results: T[]; count: number } | undefined;
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  fetching: boolean;
  noRecordsText: string;
  columns: DataTableColumn<T>[];
  idAccessor?: DataTableProps<T>['idAccessor'];
  minHeight?: DataTableProps<T>['minHeight'];
  onRowClick?: DataTableProps<T>['onRowClick'];
  rowStyle?: DataTableProps<T>['rowStyle'];
}

export function PagedTable<T>({
  data,
  page,
  onPageChange,
  pageSize,
  fetching,
  noRecordsText,
  columns,
  idAccessor,
  minHeight = 220,
  onRowClick,
  rowStyle,
}: PagedTableProps<T>) {
  const { t } = useTranslation('common');
  const paginationText = usePaginationText();
  return (
    <DataTable<T>
      idAccessor={idAccessor}
      minHeight={minHeight}
      highlightOnHover
      verticalSpacing="sm"
      fetching={fetching}
      records={data?.results ?? []}
      totalRecords={data?.count ?? 0}
      recordsPerPage={pageSize}
      page={page}
      onPageChange={onPageChange}
      paginationText={paginationText}
      getPaginationControlProps={paginationControlProps}
      noRecordsText={noRecordsText}
      loadingText={t('states.loading')}
      onRowClick={onRowClick}
      rowStyle={rowStyle}
      columns={columns}
    />
  );
}

/**
 * A list page's table from its query: the load error with "Retry" after a failure, else the bordered table of
 * the query's page (loading and empty states are the table's).
 */
export function PagedQueryTable<T>({
  query,
  ...props
}: Omit<PagedTableProps<T>, 'data' | 'fetching'> & {
  query: {
    data: { results: T[]; count: number } | undefined;
    isFetching: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
}) {
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Paper withBorder radius="md">
      <PagedTable<T> {...props} data={query.data} fetching={query.isFetching} />
    </Paper>
  );
}
