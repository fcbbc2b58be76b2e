import { describe, expect, it } from 'vitest';
import {
  computeNews2,
  news2Applies,
  pulsePoints,
  respirationPoints,
  spo2Scale1Points,
  spo2Scale2Points,
  systolicPoints,
  temperaturePoints,
} from './news2.js';

const normal = {
  respiratory_rate: 16,
  spo2: 97,
  on_oxygen: false,
  systolic_bp: 125,
  heart_rate: 75,
  avpu: 'A' as const,
  temperature: 37,
};

describe('NEWS2 parameter bands (RCP 2017 chart)', () => {
  it('respiration rate', () => {
    expect([8, 9, 11, 12, 20, 21, 24, 25].map(respirationPoints)).toEqual([3, 1, 1, 0, 0, 2, 2, 3]);
  });
  it('SpO2 scale 1', () => {
    expect([91, 92, 93, 94, 95, 96, 100].map(spo2Scale1Points)).toEqual([3, 2, 2, 1, 1, 0, 0]);
  });
  it('SpO2 scale 2: on air above 92 scores nothing, on oxygen it scores', () => {
    expect([83, 84, 85, 86, 87, 88, 92].map((s) => spo2Scale2Points(s, false))).toEqual([
      3, 2, 2, 1, 1, 0, 0,
    ]);
    expect([93, 97].map((s) => spo2Scale2Points(s, false))).toEqual([0, 0]);
    expect([93, 94, 95, 96, 97].map((s) => spo2Scale2Points(s, true))).toEqual([1, 1, 2, 2, 3]);
  });
  it('systolic pressure', () => {
    expect([90, 91, 100, 101, 110, 111, 219, 220].map(systolicPoints)).toEqual([3, 2, 2, 1, 1, 0, 0, 3]);
  });
  it('pulse', () => {
    expect([40, 41, 50, 51, 90, 91, 110, 111, 130, 131].map(pulsePoints)).toEqual([
      3, 1, 1, 0, 0, 1, 1, 2, 2, 3,
    ]);
  });
  it('temperature', () => {
    expect([35.0, 35.1, 36.0, 36.1, 38.0, 38.1, 39.0, 39.1].map(temperaturePoints)).toEqual([
      3, 1, 1, 0, 0, 1, 1, 2,
    ]);
  });
});

describe('computeNews2', () => {
  it('scores a normal set 0, complete, low, green', () => {
    const r = computeNews2(normal);
    expect(r).toMatchObject({ score: 0, complete: true, risk: 'low', escalation: 'none', colour: 'green' });
  });
  it('oxygen adds 2 and new confusion scores 3 (a red parameter: urgent)', () => {
    expect(computeNews2({ ...normal, on_oxygen: true }).score).toBe(2);
    const confused = computeNews2({ ...normal, confused: true });
    expect(confused).toMatchObject({
      score: 3,
      red_parameter: true,
      risk: 'low_medium',
      escalation: 'urgent',
      colour: 'yellow',
    });
    expect(computeNews2({ ...normal, avpu: 'V' }).breakdown.consciousness).toBe(3);
  });
  it('reaches medium at 5 and high at 7', () => {
    // RR 22 (2) + SpO2 94 (1) + pulse 105 (1) + temperature 38.5 (1) = 5
    const medium = computeNews2({
      ...normal,
      respiratory_rate: 22,
      spo2: 94,
      heart_rate: 105,
      temperature: 38.5,
    });
    expect(medium).toMatchObject({ score: 5, risk: 'medium', escalation: 'urgent', red_parameter: false });
    expect(medium.colour).toBe('orange');
    // + oxygen (2) = 7
    const high = computeNews2({
      ...normal,
      respiratory_rate: 22,
      spo2: 94,
      heart_rate: 105,
      temperature: 38.5,
      on_oxygen: true,
    });
    expect(high).toMatchObject({ score: 7, risk: 'high', escalation: 'emergency', colour: 'red' });
  });
  it('a septic picture scores the RCP worked example', () => {
    // RR 26 (3), SpO2 91 on O2 (3 + 2), SBP 88 (3), HR 135 (3), V (3), T 39.5 (2) = 19
    const r = computeNews2({
      respiratory_rate: 26,
      spo2: 91,
      on_oxygen: true,
      systolic_bp: 88,
      heart_rate: 135,
      avpu: 'V',
      temperature: 39.5,
    });
    expect(r.breakdown).toEqual({
      respiratory_rate: 3,
      spo2: 3,
      air_or_oxygen: 2,
      systolic_bp: 3,
      heart_rate: 3,
      consciousness: 3,
      temperature: 2,
    });
    expect(r.score).toBe(19);
  });
  it('uses scale 2 for a hypercapnic patient', () => {
    const onAir = { ...normal, spo2: 89 };
    expect(computeNews2(onAir).breakdown.spo2).toBe(3);
    const r = computeNews2(onAir, { hypercapnic: true });
    expect(r.spo2_scale).toBe(2);
    expect(r.breakdown.spo2).toBe(0);
  });
  it('scores an incomplete set on what is there', () => {
    const r = computeNews2({ heart_rate: 120, temperature: 36.5 });
    expect(r).toMatchObject({ score: 2, complete: false });
    expect(r.breakdown.respiratory_rate).toBeNull();
    expect(r.breakdown.air_or_oxygen).toBeNull();
  });
});

describe('news2Applies', () => {
  it('from 16 years, and when the age is unknown', () => {
    expect(news2Applies(15)).toBe(false);
    expect(news2Applies(16)).toBe(true);
    expect(news2Applies(null)).toBe(true);
  });
});
