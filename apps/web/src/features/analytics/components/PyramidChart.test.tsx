import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { IndicatorBlock } from './IndicatorBlock';
import { PyramidChart } from './PyramidChart';

const bands = [
  { label: '65 ans et plus', men: 2, women: 1 },
  { label: '25–49 ans', men: 1200, women: 30 },
  { label: '0–11 mois', men: 0, women: 4 },
];

describe('PyramidChart', () => {
  it('labels every age band, men on the left and women on the right, with counts never negative', () => {
    render(
      <TestProviders>
        <PyramidChart title="Pyramide des âges" bands={bands} menLabel="Hommes" womenLabel="Femmes" />
      </TestProviders>,
    );
    const rows = screen.getAllByTestId('pyramid-band');
    expect(rows.map((r) => within(r).getByText(/ans|mois/).textContent)).toEqual([
      '65 ans et plus',
      '25–49 ans',
      '0–11 mois',
    ]);
    const row = rows[1] as HTMLElement;
    const men = within(row).getByTestId('pyramid-men-bar');
    const label = within(row).getByText('25–49 ans');
    const women = within(row).getByTestId('pyramid-women-bar');
    // Document order is left to right: the men's bar, the band, the women's bar.
    expect(men.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(label.compareDocumentPosition(women) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(row).getByTestId('pyramid-men-count').textContent).toBe('1\u202f200');
    expect(men.style.width).toBe('85%');
    expect(women.style.width).toBe('2.125%');
  });

  it('draws the pyramid in an indicator, beside a table whose scrolling region is focusable and named', () => {
    render(
      <TestProviders>
        <IndicatorBlock
          id="age-sex-pyramid"
          title="Pyramide des âges"
          context={[]}
          rows={bands}
          columns={[{ label: 'Tranche', value: (r) => r.label }]}
          figure={<PyramidChart title="Pyramide des âges" bands={bands} menLabel="H" womenLabel="F" />}
        />
      </TestProviders>,
    );
    expect(screen.getByRole('figure', { name: 'Pyramide des âges' })).toBeTruthy();
    const table = screen.getByTestId('table-age-sex-pyramid');
    const region = table.closest('[tabindex="0"]');
    expect(region?.getAttribute('aria-label')).toBe('Pyramide des âges');
  });
});
