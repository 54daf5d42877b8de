import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Severity, SeverityCounts } from '../api';

export interface TrendDay {
  date: string;
  open: SeverityCounts;
}

/**
 * The severities' colours (Okabe and Ito's palette, told apart with the common colour-vision
 * deficiencies) and a dash each, so the lines differ in more than colour.
 */
export const SEVERITY_STYLES: Record<Severity, { colour: string; dash: number[] }> = {
  critical: { colour: '#d55e00', dash: [] },
  high: { colour: '#e69f00', dash: [10, 4] },
  medium: { colour: '#0072b2', dash: [4, 4] },
  low: { colour: '#009e73', dash: [1, 4] },
  none: { colour: '#6e6e6e', dash: [10, 4, 1, 4] },
};

const HEIGHT = 260;

/** Seconds since the epoch of a UTC day `YYYY-MM-DD`, uPlot's x values. */
const daySeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * Open findings per day, one line per severity, drawn by uPlot on a canvas. The canvas is hidden
 * from screen readers: the figure's caption says what it shows and the table beside it holds the
 * numbers.
 */
export function TrendChart({
  days,
  severities,
  label,
}: {
  days: TrendDay[];
  severities: Severity[];
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      days.map((day) => daySeconds(day.date)),
      ...severities.map((severity) => days.map((day) => day.open[severity])),
    ];
    const chart = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: HEIGHT,
        // The days are UTC days: their ticks read as such wherever the reader is.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        // Our own legend names the lines; the table beside the chart holds the numbers.
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { y: { range: (_self, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { size: 56 }],
        series: [
          {
            label: 'Day',
            value: (_self, seconds) => new Date(seconds * 1000).toISOString().slice(0, 10),
          },
          ...severities.map((severity) => ({
            label: severity,
            stroke: SEVERITY_STYLES[severity].colour,
            dash: SEVERITY_STYLES[severity].dash,
            width: severity === 'critical' ? 2.5 : 2,
            points: { show: false },
          })),
        ],
      },
      data,
      element,
    );
    chart.root.querySelector('canvas')?.setAttribute('aria-hidden', 'true');
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days, severities.join()]);
  return <div class="trend-chart" ref={box} role="img" aria-label={label} />;
}
