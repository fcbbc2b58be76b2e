import { NOTIFICATION_STYLE } from '@greensen/shared/domain/notifications';
import { DEFAULT_THEME, getPrimaryShade, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, MIN_CONTRAST, readableOn, THEME_COLORS, theme } from './theme';

describe('theme', () => {
  it('has every colour the notification styles name (the spec’s purple, emerald and amber as their own)', () => {
    const known = new Set([...Object.keys(DEFAULT_THEME.colors), ...Object.keys(THEME_COLORS)]);
    for (const [type, style] of Object.entries(NOTIFICATION_STYLE))
      expect(known.has(style.color), type).toBe(true);
    expect(NOTIFICATION_STYLE.transfer.color).toBe('purple');
    expect(THEME_COLORS.purple).toHaveLength(10);
    expect(THEME_COLORS.emerald).toHaveLength(10);
    expect(THEME_COLORS.amber).toHaveLength(10);
  });
});

describe('colour contrast of the theme (issue 25, WCAG AA 4.5:1)', () => {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const { light, dark } = cssVariablesResolver(merged);

  it('darkens the filled background under white text only as much as needed, in both schemes', () => {
    for (const [scheme, vars] of [
      ['light', light],
      ['dark', dark],
    ] as const) {
      for (const [name, shades] of Object.entries(merged.colors)) {
        const base = shades[getPrimaryShade(merged, scheme)]!;
        const filled = vars[`--mantine-color-${name}-filled`] ?? base;
        // Yellow (and lime in the light scheme) keep their shade: they carry dark text.
        if (filled === base && contrastRatio(base, '#ffffff') < MIN_CONTRAST) continue;
        expect(contrastRatio(filled, '#ffffff'), `${scheme} ${name}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
        if (filled !== base)
          expect(contrastRatio(filled, '#ffffff'), `${scheme} ${name} not darker than needed`).toBeLessThan(
            6,
          );
      }
    }
    // The primary button and the red allergy chip carry white text.
    expect(light['--mantine-color-greensen-filled']).toBeDefined();
    expect(dark['--mantine-color-greensen-filled']).toBeDefined();
    expect(light['--mantine-color-red-filled']).toBeDefined();
  });

  it('makes coloured text readable on white and on its own tint, and the light chips readable', () => {
    for (const [name, shades] of Object.entries(merged.colors)) {
      expect(contrastRatio(light[`--mantine-color-${name}-text`]!, shades[1]!), name).toBeGreaterThanOrEqual(
        MIN_CONTRAST,
      );
      expect(contrastRatio(light[`--mantine-color-${name}-text`]!, '#ffffff'), name).toBeGreaterThanOrEqual(
        MIN_CONTRAST,
      );
      expect(
        contrastRatio(light[`--mantine-color-${name}-light-color`]!, shades[2]!),
        name,
      ).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
    expect(contrastRatio(dark['--mantine-color-dimmed']!, '#242424')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastRatio(merged.colors.gray[6], '#ffe3e3')).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('computes the WCAG ratio', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#28a84a', '#ffffff')).toBeCloseTo(3.09, 2);
    expect(readableOn('#0b8133', '#ffffff')).toBe('#0b8133');
  });
});
