import { describe, expect, it } from 'vitest';
import {
  computeTews,
  levelRank,
  suggestFrench,
  suggestSats,
  suggestTriageLevel,
  TARGET_MINUTES,
  tewsColour,
} from './triage.js';

describe('FRENCH suggestion', () => {
  it('is 5 without abnormal vitals', () => {
    expect(
      suggestFrench({ temperature: 37, heart_rate: 80, respiratory_rate: 16, systolic_bp: 125, spo2: 98 })
        .level,
    ).toBe('5');
  });
  it('raises to the most severe modifier', () => {
    expect(suggestFrench({ avpu: 'U' }).level).toBe('1');
    expect(suggestFrench({ spo2: 85 }).level).toBe('1');
    expect(suggestFrench({ spo2: 89, heart_rate: 105 }).level).toBe('2');
    expect(suggestFrench({ systolic_bp: 95 }).level).toBe('3A');
    expect(suggestFrench({ temperature: 38.4 }).level).toBe('3B');
    expect(suggestFrench({ pain: 2 }).level).toBe('4');
    expect(suggestFrench({ glycaemia: 2.5 }).reasons).toContain('hypoglycaemia');
  });
  it('has the SFMU target delays', () => {
    expect([
      TARGET_MINUTES['1'],
      TARGET_MINUTES['2'],
      TARGET_MINUTES['3A'],
      TARGET_MINUTES['3B'],
      TARGET_MINUTES['4'],
      TARGET_MINUTES['5'],
    ]).toEqual([0, 20, 60, 90, 120, 240]);
    expect(levelRank('FRENCH', '3B')).toBe(4);
  });
});

describe('SATS TEWS', () => {
  it('scores each parameter of the adult table', () => {
    const t = computeTews({
      mobility: 'with_help',
      respiratory_rate: 22,
      heart_rate: 112,
      systolic_bp: 75,
      temperature: 38.6,
      avpu: 'V',
      trauma: true,
    });
    expect(t.breakdown).toEqual({
      mobility: 1,
      respiratory_rate: 2,
      heart_rate: 2,
      systolic_bp: 2,
      temperature: 2,
      avpu: 1,
      trauma: 1,
    });
    expect(t.score).toBe(11);
    expect(t.complete).toBe(true);
  });
  it('scores the boundaries', () => {
    expect(computeTews({ respiratory_rate: 8 }).score).toBe(2);
    expect(computeTews({ respiratory_rate: 14 }).score).toBe(0);
    expect(computeTews({ respiratory_rate: 30 }).score).toBe(3);
    expect(computeTews({ heart_rate: 40 }).score).toBe(2);
    expect(computeTews({ heart_rate: 50 }).score).toBe(1);
    expect(computeTews({ heart_rate: 130 }).score).toBe(3);
    expect(computeTews({ systolic_bp: 70 }).score).toBe(3);
    expect(computeTews({ systolic_bp: 200 }).score).toBe(2);
    expect(computeTews({ temperature: 34.9 }).score).toBe(2);
    expect(computeTews({ avpu: 'U' }).score).toBe(3);
    expect(computeTews({ mobility: 'immobile' }).score).toBe(2);
    expect(computeTews({}).complete).toBe(false);
  });
  it('maps the score to a colour and lets discriminators raise it', () => {
    expect([0, 2, 3, 4, 5, 6, 7].map(tewsColour)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'orange',
      'orange',
      'red',
    ]);
    expect(suggestSats({ heart_rate: 80 }).level).toBe('green');
    expect(suggestSats({ heart_rate: 80 }, ['chest_pain']).level).toBe('orange');
    expect(suggestSats({ heart_rate: 80 }, ['seizure_current']).level).toBe('red');
    expect(suggestSats({ glycaemia: 2 }).level).toBe('red');
    // A discriminator never lowers the TEWS colour.
    expect(
      suggestSats({ respiratory_rate: 35, heart_rate: 140, systolic_bp: 65 }, ['abdominal_pain']).level,
    ).toBe('red');
    expect(suggestTriageLevel('SATS', { pain: 6 }).level).toBe('yellow');
    expect(TARGET_MINUTES.orange).toBe(10);
  });
});
