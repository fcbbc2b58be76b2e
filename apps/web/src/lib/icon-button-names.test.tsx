import { Modal, Notification, Select } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/render';
import { DateField } from './date-field';

// Issue 37, axe "button-name": the notification's and the dispense modal's close buttons and the appointments
// filters' clear buttons had no accessible name. The theme names the kit's icon buttons in the UI language.
describe('the kit’s icon buttons have a name', () => {
  it('names a modal’s and a notification’s close button', () => {
    render(
      <TestProviders>
        <Modal opened onClose={() => {}} title="Délivrance">
          contenu
        </Modal>
        <Notification title="Enregistré" onClose={() => {}} />
      </TestProviders>,
    );
    expect(screen.getAllByRole('button', { name: 'Fermer' })).toHaveLength(2);
  });

  it('names the clear button of a select', () => {
    render(
      <TestProviders>
        <Select label="Service" data={['Urgences']} value="Urgences" onChange={() => {}} clearable />
      </TestProviders>,
    );
    for (const button of screen.queryAllByRole('button')) expect(button).toHaveAccessibleName();
  });

  it('names the clear button of a date field (the appointments filters)', () => {
    render(
      <TestProviders>
        <DateField label="Du" value="2026-12-06" onChange={() => {}} clearable />
      </TestProviders>,
    );
    expect(screen.getByRole('button', { name: 'Effacer' })).toBeInTheDocument();
  });
});
