import { describe, expect, it } from 'vitest';
import { labelStep } from './BarChart';

describe('the bar chart’s category labels', () => {
  it('shows every label when they fit', () => {
    expect(labelStep(['Patrick Ilunga', 'Marie Lukusa'], 600)).toBe(1);
  });

  it('shows one label in k when they would overlap (a month of days on a tablet)', () => {
    const days = Array.from({ length: 31 }, (_, i) => `${String(i + 1).padStart(2, '0')}/11`);
    // 31 labels of 5 characters (47 px each) need 1,457 px: on 400 px, one in four.
    expect(labelStep(days, 400)).toBe(4);
    expect(labelStep(days, 1500)).toBe(1);
  });

  it('never divides by nothing', () => {
    expect(labelStep([], 400)).toBe(1);
    expect(labelStep(['a'], 0)).toBe(1);
  });
});
