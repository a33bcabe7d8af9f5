import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart. Lines differ by dash as well as colour, so no meaning rests on colour alone. */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  dash?: 'solid' | 'dashed' | 'dotted';
  /** How the text alternative sums the line up: the total of an additive figure, the highest of a level. */
  summary: 'total' | 'highest';
}

const DASH: Record<NonNullable<ChartSeries['dash']>, number[]> = { solid: [], dashed: [8, 4], dotted: [2, 3] };
const HEIGHT = 220;

/**
 * A time-series chart (uPlot on a canvas: its styles come from its stylesheet and from element.style set by script,
 * never from inline markup, so it runs under the page's `style-src 'self'`). The canvas is described by an aria-label
 * summary, and the same figures are in a table under a disclosure.
 */
export function TimeChart({
  title,
  times,
  timeLabel,
  series,
  format,
}: {
  title: string;
  /** Bucket starts, ISO 8601. */
  times: string[];
  /** How a bucket start reads in the table and the summary. */
  timeLabel: (iso: string) => string;
  series: ChartSeries[];
  format: (value: number) => string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const target = container.current;
    if (!target) return;
    const x = times.map((time) => new Date(time).getTime() / 1000);
    const chart = new uPlot(
      {
        width: Math.max(280, target.clientWidth),
        height: HEIGHT,
        // Buckets are UTC hours and days: the axis reads in UTC too.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true, range: (_u, min, max) => (min === max ? [min - 43_200, max + 43_200] : [min, max]) },
          y: { range: (_u, _min, max) => [0, max !== null && max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          { stroke: '#56606e', grid: { stroke: '#e6e9ee' } },
          {
            stroke: '#56606e',
            grid: { stroke: '#e6e9ee' },
            size: 70,
            values: (_u, ticks) => ticks.map((tick) => format(tick)),
          },
        ],
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            dash: DASH[line.dash ?? 'solid'],
            points: { show: true, size: 6, fill: line.color },
            spanGaps: false,
          })),
        ],
      },
      [x, ...series.map((line) => line.values)],
      target,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, target.clientWidth), height: HEIGHT }),
    );
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [times, series, format]);

  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption>
        <h3 id={titleId}>{title}</h3>
        <ul className="chart-legend">
          {series.map((line) => (
            <li key={line.label}>
              <span
                className={`swatch ${line.dash ?? 'solid'}`}
                style={{ borderColor: line.color }}
                aria-hidden="true"
              />
              {line.label}
              {line.dash && line.dash !== 'solid' ? ` (${line.dash})` : ''}
            </li>
          ))}
        </ul>
      </figcaption>
      <div
        ref={container}
        className="chart-canvas"
        role="img"
        aria-label={describe(title, times, timeLabel, series, format)}
      />
      <details className="chart-data">
        <summary>{title}: the figures as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Period (UTC)</th>
                {series.map((line) => (
                  <th scope="col" className="number" key={line.label}>
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((time, index) => (
                <tr key={time}>
                  <th scope="row">{timeLabel(time)}</th>
                  {series.map((line) => (
                    <td className="number" key={line.label}>
                      {line.values[index] === null ? '—' : format(line.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** The chart in one sentence per line: its total or its highest point and when. */
function describe(
  title: string,
  times: string[],
  timeLabel: (iso: string) => string,
  series: ChartSeries[],
  format: (value: number) => string,
): string {
  if (times.length === 0) return `${title}: no data.`;
  const span = `${timeLabel(times[0])} to ${timeLabel(times[times.length - 1])} (UTC)`;
  const lines = series.map((line) => {
    let highest: number | null = null;
    let highestAt = 0;
    let total = 0;
    for (const [index, value] of line.values.entries()) {
      if (value === null) continue;
      total += value;
      if (highest === null || value > highest) {
        highest = value;
        highestAt = index;
      }
    }
    if (highest === null) return `${line.label}: no data`;
    const peak = `highest ${format(highest)} at ${timeLabel(times[highestAt])}`;
    return line.summary === 'total' ? `${line.label}: ${format(total)} in total, ${peak}` : `${line.label}: ${peak}`;
  });
  return `${title}, ${span}. ${lines.join('; ')}.`;
}
