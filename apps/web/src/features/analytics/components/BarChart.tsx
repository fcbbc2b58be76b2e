/**
 * A bar chart of an indicator (decision 0026's uPlot, in its own lazily loaded chunk: only the analytics
 * pages import it, through `React.lazy`). Categories on the x axis, one series of bars each (grouped).
 */
import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  colour: string;
}

const HEIGHT = 260;

/** Show one category label in `step`, so that labels of about 7 px a character do not overlap. */
export function labelStep(categories: string[], plotWidth: number): number {
  if (categories.length === 0 || plotWidth <= 0) return 1;
  const longest = Math.max(...categories.map((c) => c.length));
  const labelWidth = longest * 7 + 12;
  return Math.max(1, Math.ceil((categories.length * labelWidth) / plotWidth));
}

export default function BarChart({
  categories,
  series,
  title,
}: {
  categories: string[];
  series: ChartSeries[];
  title: string;
}) {
  const scheme = useComputedColorScheme('light');
  const theme = useMantineTheme();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element || categories.length === 0) return;
    const dark = scheme === 'dark';
    const ink = dark ? theme.colors.dark[0] : theme.colors.gray[8];
    const grid = dark ? theme.colors.dark[4] : theme.colors.gray[3];
    const colour = (name: string) => theme.colors[name]?.[dark ? 5 : 6] ?? ink;
    const groups = series.length;
    // Stacked: each series is drawn as the running total up to it, the tallest first, so that each colour
    // shows its own share (the table beside the chart gives the exact figures).
    const totals = series.map((_, i) =>
      categories.map((_c, j) => series.slice(0, i + 1).reduce((sum, s) => sum + (s.values[j] ?? 0), 0)),
    );
    const bars = series
      .map(
        (s): uPlot.Series => ({
          label: s.label,
          stroke: colour(s.colour),
          fill: colour(s.colour),
          width: 0,
          points: { show: false },
          paths: uPlot.paths.bars?.({ size: [0.7, 64] }),
        }),
      )
      .reverse();
    const data: uPlot.AlignedData = [categories.map((_, i) => i), ...totals.reverse()];
    const plot = new uPlot(
      {
        title,
        width: element.clientWidth || 600,
        height: HEIGHT,
        scales: {
          x: { time: false, range: [-0.5, categories.length - 0.5] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
        },
        axes: [
          {
            stroke: ink,
            grid: { show: false },
            splits: () => categories.map((_, i) => i),
            // Every label when they fit, otherwise every k-th one (31 days on a tablet would overlap).
            values: (u, splits) => {
              const step = labelStep(categories, u.bbox.width / uPlot.pxRatio);
              return splits.map((i) => (i % step === 0 ? (categories[i] ?? '') : ''));
            },
          },
          { stroke: ink, grid: { stroke: grid, width: 1 } },
        ],
        // Not live: the legend names the series without the cursor's values (and without the x series).
        legend: { show: groups > 1, live: false },
        cursor: { drag: { x: false, y: false } },
        series: [{}, ...bars],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: element.clientWidth || 600, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [categories, series, title, scheme, theme]);

  return <div ref={box} role="img" aria-label={title} style={{ width: '100%', minHeight: HEIGHT }} />;
}
