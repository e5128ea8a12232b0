import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  kind: 'bars' | 'line' | 'step';
  /** Bars beside each other: -1 left of the tick, 1 right of it, 0 on it. */
  align?: -1 | 0 | 1;
}

export interface UplotChartProps {
  /** Bucket starts, epoch ms. */
  x: number[];
  series: ChartSeries[];
  /** Tick labels of the x axis (bucket starts) and of the y axis. */
  formatX: (ms: number) => string;
  formatY: (v: number) => string;
  /** Axis and grid ink (light or dark). */
  ink: string;
  grid: string;
  height?: number;
  /** The legend's name of the x value (the hovered bucket). */
  xLabel: string;
}

/**
 * One uPlot canvas sized to its box. The canvas is hidden from screen readers: each chart's
 * numbers are also a table (ChartTable) that they read instead.
 */
export function UplotChart({
  x,
  series,
  formatX,
  formatY,
  ink,
  grid,
  height = 190,
  xLabel,
}: UplotChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height,
        legend: { show: true },
        cursor: { points: { show: false } },
        scales: {
          x: { time: false },
          y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        },
        axes: [
          { ...axis, values: (_u, splits) => splits.map((s) => formatX(s)), space: 60 },
          { ...axis, values: (_u, splits) => splits.map((s) => formatY(s)), size: 76 },
        ],
        series: [
          { label: xLabel, value: (_u, v) => (v === null ? '' : formatX(v)) },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: s.kind === 'bars' ? s.color : undefined,
            width: s.kind === 'bars' ? 0 : 2,
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : formatY(v)),
            paths:
              s.kind === 'bars'
                ? uPlot.paths.bars!({ size: [s.align ? 0.4 : 0.7, 40], align: s.align ?? 0 })
                : s.kind === 'step'
                  ? uPlot.paths.stepped!({ align: 1 })
                  : undefined,
            points: { show: s.kind === 'line' },
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(el.clientWidth, 200), height }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, formatX, formatY, ink, grid, height, xLabel]);
  return <div ref={box} aria-hidden="true" style={{ width: '100%', minHeight: height }} />;
}
