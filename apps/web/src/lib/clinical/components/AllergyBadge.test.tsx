import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { AllergyAlert } from './AllergyBadge';

describe('allergies on the record', () => {
  it('never shows a patient nobody asked as having no known allergy', () => {
    render(
      <TestProviders>
        <AllergyAlert allergies={[]} recorded={false} />
      </TestProviders>,
    );
    expect(screen.getByTestId('allergies-not-asked')).toHaveTextContent('Allergies non renseignées');
    expect(screen.queryByText('Aucune allergie connue')).not.toBeInTheDocument();
  });

  it('says "no known allergy" only when someone recorded it, and lists the known ones in red', () => {
    const { rerender } = render(
      <TestProviders>
        <AllergyAlert allergies={[]} recorded />
      </TestProviders>,
    );
    expect(screen.getByTestId('allergies-none')).toHaveTextContent('Aucune allergie connue');
    rerender(
      <TestProviders>
        <AllergyAlert allergies={['Pénicilline', 'Arachide']} recorded />
      </TestProviders>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Pénicilline · Arachide');
  });
});
