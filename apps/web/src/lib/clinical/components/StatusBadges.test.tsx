/**
 * Status chips sit in narrow table columns (768 px tablets): each keeps the whole of its text ("EN CONSULTATION",
 * not "EN CONSULTA…") through the shared NEVER_CUT styles, which lift Mantine's ellipsis on the label.
 */
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { AdmissionStatusBadge } from './AdmissionStatusBadge';
import { ConsultationStatusBadge } from './ConsultationBadges';
import { ExamAbnormalBadge, ExamFlagBadge, ExamStatusBadge, ExamUrgencyBadge } from './ExamBadges';
import { TriageLevelBadge } from './TriageLevelBadge';

function expectNeverCut(root: HTMLElement) {
  expect(root).toHaveStyle({ overflow: 'visible', flexShrink: '0' });
  const label = root.querySelector<HTMLElement>('.mantine-Badge-label');
  expect(label).not.toBeNull();
  expect(label).toHaveStyle({ overflow: 'visible', textOverflow: 'clip' });
}

/** Each chip (test id, whole French text) in one of its longest states. */
const CHIPS: [string, string, () => ReactElement][] = [
  ['admission-status', 'En consultation', () => <AdmissionStatusBadge status="in_consultation" />],
  ['consultation-status', 'En cours', () => <ConsultationStatusBadge status="in_progress" />],
  ['exam-status', 'En cours', () => <ExamStatusBadge status="in_progress" />],
  ['exam-urgency-urgent', 'Urgent', () => <ExamUrgencyBadge urgency="urgent" />],
  ['exam-abnormal', 'Anormal', () => <ExamAbnormalBadge />],
  ['flag-high', 'Élevé', () => <ExamFlagBadge flag="high" />],
  ['triage-level', 'Orange', () => <TriageLevelBadge level="orange" />],
];

describe('status chips in narrow columns', () => {
  it.each(CHIPS)('the %s chip is never cut', (testId, text, chip) => {
    render(<TestProviders>{chip()}</TestProviders>);
    const root = screen.getByTestId(testId);
    expect(root).toHaveTextContent(text);
    expectNeverCut(root);
  });
});
