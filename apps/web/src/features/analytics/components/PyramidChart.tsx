/**
 * An age and sex pyramid: one row per age band, every band labelled, men's bar to the left and women's to the
 * right of the band, each bar's count written beside it (a count, never negative). Plain HTML, no chart library:
 * it reads the same with a screen reader as on screen.
 */
import { Box, Group, Stack, Text, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { formatNumber } from '../../../lib/format';

export interface PyramidBand {
  label: string;
  men: number;
  women: number;
}

export function PyramidChart({
  title,
  bands,
  menLabel,
  womenLabel,
}: {
  title: string;
  /** From the top of the pyramid (the oldest) to its base (the youngest). */
  bands: PyramidBand[];
  menLabel: string;
  womenLabel: string;
}) {
  const scheme = useComputedColorScheme('light');
  const theme = useMantineTheme();
  const shade = scheme === 'dark' ? 5 : 6;
  const max = Math.max(1, ...bands.map((b) => Math.max(b.men, b.women)));
  // Room is left beside the longest bar for its count.
  const width = (n: number) => `${(Math.abs(n) / max) * 85}%`;
  const bar = (n: number, colour: string, side: 'men' | 'women') => (
    <Group
      gap={4}
      wrap="nowrap"
      justify={side === 'men' ? 'flex-end' : 'flex-start'}
      style={{ flex: 1, minWidth: 0, flexDirection: side === 'men' ? 'row' : 'row-reverse' }}
    >
      <Text size="xs" c="dimmed" data-testid={`pyramid-${side}-count`}>
        {formatNumber(Math.abs(n))}
      </Text>
      <Box
        data-testid={`pyramid-${side}-bar`}
        style={{ width: width(n), height: 14, background: theme.colors[colour]?.[shade] }}
      />
    </Group>
  );
  return (
    <Stack gap={4} role="figure" aria-label={title} data-testid="pyramid">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600} c="blue">
          {menLabel}
        </Text>
        <Text size="sm" fw={600} c="pink">
          {womenLabel}
        </Text>
      </Group>
      {bands.map((b) => (
        <Group key={b.label} gap="xs" wrap="nowrap" data-testid="pyramid-band">
          {bar(b.men, 'blue', 'men')}
          <Text size="xs" ta="center" w={104} style={{ flexShrink: 0 }}>
            {b.label}
          </Text>
          {bar(b.women, 'pink', 'women')}
        </Group>
      ))}
    </Stack>
  );
}
