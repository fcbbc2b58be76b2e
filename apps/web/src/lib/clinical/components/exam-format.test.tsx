import type { TExamResultLine } from '@greensen/shared/contracts/exams';
import { REFERENCE_ABSENT, referenceText } from '@greensen/shared/domain/exams';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { i18n } from '../../i18n';
import { ExamResultLines } from './ExamResultLines';
import { referenceLabel } from './exam-format';

const fr = i18n.getFixedT('fr');
const en = i18n.getFixedT('en');

/** A parasite density of a thick smear (goutte épaisse), whose catalogue reference is `{ high: 0 }`. */
const DENSITY: TExamResultLine = {
  key: 'density',
  label_fr: 'Parasitémie',
  label_en: 'Parasite density',
  unit: 'parasites/µL',
  value: 1200,
  value_label_fr: null,
  value_label_en: null,
  flag: 'high',
  reference: referenceText({ high: 0 }),
};

describe('reference ranges as shown', () => {
  afterEach(async () => {
    await i18n.changeLanguage('fr');
  });

  it('shows a quantity that is normally none as absent, in the UI language, not "≤ 0"', () => {
    expect(referenceLabel(REFERENCE_ABSENT, fr, 'fr')).toBe('absence');
    expect(referenceLabel(REFERENCE_ABSENT, en, 'en')).toBe('absent');
  });

  it('keeps the other ranges, and no range, as they are', () => {
    expect(referenceLabel('12 – 16', fr, 'fr')).toBe('12 – 16');
    expect(referenceLabel('≤ 5', en, 'en')).toBe('≤ 5');
    expect(referenceLabel(null, fr, 'fr')).toBeNull();
  });

  it('writes decimals with the French comma in French, the point in English', () => {
    expect(referenceLabel('0.5 – 50', fr, 'fr')).toBe('0,5 – 50');
    expect(referenceLabel('≤ 1.2', fr, 'fr')).toBe('≤ 1,2');
    expect(referenceLabel('0.5 – 50', en, 'en')).toBe('0.5 – 50');
  });

  it('says a parasite density found as a clinician would: "Positif (référence : absence)", not "↑ Élevé"', async () => {
    const { unmount } = render(
      <TestProviders>
        <ExamResultLines lines={[DENSITY]} />
      </TestProviders>,
    );
    expect(screen.getByTestId('result-line-density')).toHaveTextContent('Positif(référence : absence)');
    expect(screen.getByTestId('result-line-density')).not.toHaveTextContent('≤');
    expect(screen.getByTestId('result-line-density')).not.toHaveTextContent('Élevé');
    unmount();
    await i18n.changeLanguage('en');
    render(
      <TestProviders>
        <ExamResultLines lines={[DENSITY]} />
      </TestProviders>,
    );
    expect(screen.getByTestId('result-line-density')).toHaveTextContent('Positive(reference: absent)');
  });
});
