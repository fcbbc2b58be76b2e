import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { TestProviders } from '../../../test/render';
import { ConsultationRecordView } from './ConsultationRecordView';
import { consultationRecord } from './consultation.fixture';

afterEach(async () => {
  await i18n.changeLanguage('fr');
});

const record = consultationRecord({
  status: 'completed',
  vitals: { temperature: 38.7, weight: 62.5, glycaemia: 5.4 },
} as never);

// Issue 37: a finished consultation showed "38.7 °C", "62.5 kg", "5.4 mmol/L" to a French user.
describe('a finished consultation’s vital signs', () => {
  it('are written with the decimal comma in French', async () => {
    await i18n.loadNamespaces(['consultations', 'triage']);
    render(
      <MemoryRouter>
        <ConsultationRecordView record={record} />
      </MemoryRouter>,
      { wrapper: TestProviders },
    );
    expect(screen.getByText('38,7 °C')).toBeInTheDocument();
    expect(screen.getByText('62,5 kg')).toBeInTheDocument();
    expect(screen.getByText('5,4 mmol/L')).toBeInTheDocument();
  });

  it('and with the decimal point in English', async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces(['consultations', 'triage']);
    render(
      <MemoryRouter>
        <ConsultationRecordView record={record} />
      </MemoryRouter>,
      { wrapper: TestProviders },
    );
    expect(screen.getByText('38.7 °C')).toBeInTheDocument();
  });
});
