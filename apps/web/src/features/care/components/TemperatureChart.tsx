/**
 * The temperature chart drawn (decision 0026): uPlot on a canvas, in its own lazily loaded chunk — only the
 * chart's tab imports this module, through `React.lazy`. Temperature on the left axis (°C); pulse, pressures,
 * respiratory rate and SpO₂ on the right; pain on a hidden 0–10 scale. Gaps stay gaps (nothing measured then is
 * not drawn as a line through). Clicking a legend entry hides or shows its curve. Colours follow the colour
 * scheme; the width follows the container.
 */
import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartPoint } from './chart-points';

const HEIGHT = 360;

export default function TemperatureChart({
  points,
  range,
}: {
  points: ChartPoint[];
  /** The period shown (ms): the days of the sheet, whatever was measured in them. */
  range: [number, number];
}) {
  const { t, i18n } = useTranslation('care');
  const scheme = useComputedColorScheme('light');
  const theme = useMantineTheme();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const dark = scheme === 'dark';
    const ink = dark ? theme.colors.dark[0] : theme.colors.gray[8];
    const grid = dark ? theme.colors.dark[4] : theme.colors.gray[3];
    const colour = (name: string, shade = 6) => theme.colors[name]?.[dark ? shade - 1 : shade] ?? ink;
    const locale = i18n.language === 'en' ? 'en-GB' : 'fr-FR';
    const day = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit' });
    const hour = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
    const full = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
    const line = (label: string, scale: string, stroke: string, dash?: number[]): uPlot.Series => ({
      label,
      scale,
      stroke,
      width: 2,
      spanGaps: true,
      points: { show: true, size: 6, fill: stroke },
      ...(dash ? { dash } : {}),
    });
    const data: uPlot.AlignedData = [
      points.map((p) => p.at / 1000),
      points.map((p) => p.temperature),
      points.map((p) => p.heart_rate),
      points.map((p) => p.systolic_bp),
      points.map((p) => p.diastolic_bp),
      points.map((p) => p.respiratory_rate),
      points.map((p) => p.spo2),
      points.map((p) => p.pain),
    ];
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 280),
      height: HEIGHT,
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: true, range: [range[0] / 1000, range[1] / 1000] },
        temp: { range: [34, 42] },
        right: { range: [0, 220] },
        pain: { range: [0, 10] },
      },
      series: [
        { label: t('chart.time'), value: (_u, v) => (v === null ? '—' : full.format(new Date(v * 1000))) },
        line(t('vitals.temperature'), 'temp', colour('red')),
        line(t('vitals.heart_rate'), 'right', colour('blue')),
        line(t('vitals.systolic_bp'), 'right', colour('grape')),
        line(t('vitals.diastolic_bp'), 'right', colour('grape'), [6, 4]),
        line(t('vitals.respiratory_rate'), 'right', colour('teal')),
        line(t('vitals.spo2'), 'right', colour('cyan'), [2, 3]),
        line(t('vitals.pain'), 'pain', colour('orange')),
      ],
      axes: [
        {
          stroke: ink,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          values: (_u, splits, _axis, _space, increment) =>
            splits.map((s) => (increment >= 86_400 ? day : hour).format(new Date(s * 1000))),
        },
        {
          scale: 'temp',
          label: '°C',
          stroke: colour('red'),
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
        },
        {
          scale: 'right',
          side: 1,
          label: t('chart.rightAxis'),
          stroke: ink,
          grid: { show: false },
          ticks: { stroke: grid },
        },
      ],
    };
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, range, scheme, theme, t, i18n.language]);

  return (
    <div
      ref={box}
      data-testid="temperature-chart"
      role="img"
      aria-label={t('chart.aria')}
      style={{ width: '100%', minHeight: HEIGHT, color: 'var(--mantine-color-text)' }}
    />
  );
}
