import { Pagination } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { i18n } from '../../i18n';
import { PagedTable } from './PagedTable';

afterEach(async () => {
  await i18n.changeLanguage('fr');
});

const rows = Array.from({ length: 10 }, (_, i) => ({ id: String(i), name: `Patient ${i}` }));

function Table() {
  return (
    <PagedTable
      data={{ results: rows, count: 45 }}
      page={2}
      onPageChange={() => {}}
      pageSize={10}
      fetching={false}
      noRecordsText="—"
      columns={[{ accessor: 'name' }]}
    />
  );
}

// Issue 37: "Previous page"/"Next page" were the names of the pagination's arrows on 13 French pages.
describe('pagination in the UI language', () => {
  it('names the table’s arrows in French, then in English', async () => {
    const { unmount } = render(<Table />, { wrapper: TestProviders });
    expect(screen.getByRole('button', { name: 'Page précédente' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    unmount();
    await i18n.changeLanguage('en');
    render(<Table />, { wrapper: TestProviders });
    expect(screen.getByRole('button', { name: 'Next page' })).toBeInTheDocument();
  });

  it('names a plain Pagination’s arrows too (the theme’s default)', () => {
    render(<Pagination total={5} value={2} onChange={() => {}} />, { wrapper: TestProviders });
    expect(screen.getByRole('button', { name: 'Page précédente' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeInTheDocument();
  });
});
