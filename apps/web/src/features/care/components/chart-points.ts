/** The temperature chart's measurements as the chart draws them: the time in milliseconds, gaps as null. */
import type { TChart } from '@greensen/shared/contracts/care';

export type ChartPoint = Omit<TChart['points'][number], 'at'> & { at: number };

export function chartPoints(chart: TChart): ChartPoint[] {
  return chart.points
    .map((p) => ({ ...p, at: new Date(p.at).getTime() }))
    .filter((p) => Number.isFinite(p.at))
    .sort((a, b) => a.at - b.at);
}
