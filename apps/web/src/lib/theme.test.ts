import { NOTIFICATION_STYLE } from '@greensen/shared/domain/notifications';
import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { THEME_COLORS } from './theme';

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
