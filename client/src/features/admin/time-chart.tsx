import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  values: number[];
}

interface TimeChartProps {
  /** Start of each period, as epoch seconds. */
  times: number[];
  series: ChartSeries[];
  /** Bars (counts per day) instead of lines. */
  bars?: boolean;
  height?: number;
  testId?: string;
}

// The app's dark theme (styles/tokens.css): muted axis text on the surface colour, grid in the border colour.
const AXIS = { stroke: '#9aa3b2', grid: { stroke: '#262c3b', width: 1 }, ticks: { stroke: '#262c3b', width: 1 } };

/**
 * A time chart drawn by uPlot on a canvas sized to its container. The canvas is a picture: the page states the
 * same figures in text beside it (the legend with totals), so screen readers lose nothing.
 */
export function TimeChart({ times, series, bars, height = 220, testId }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = `${bars ? 'bars' : 'lines'}:${series.map((s) => s.label).join('|')}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const options: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { show: true, points: { show: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [AXIS, { ...AXIS, size: 40 }],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          fill: bars ? s.color : undefined,
          width: 2,
          points: { show: false },
          paths: bars ? uPlot.paths.bars!({ size: [0.6, 40] }) : undefined,
        })),
      ],
    };
    const made = new uPlot(options, [times, ...series.map((s) => s.values)], el);
    plot.current = made;
    const resize = new ResizeObserver(() => made.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      made.destroy();
      plot.current = null;
    };
    // Rebuilt only when the kind of chart changes; new figures go through setData below.
  }, [shape, height]);

  useEffect(() => {
    plot.current?.setData([times, ...series.map((s) => s.values)]);
  }, [times, series]);

  return <div ref={box} className="admin-chart" aria-hidden="true" data-testid={testId} />;
}
