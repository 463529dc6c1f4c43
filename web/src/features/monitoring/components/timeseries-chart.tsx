import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { toUplotData } from '../model/panel-data';
import type { MatrixSeries } from '../model/types';

const COLORS = ['#2457c5', '#d97706', '#16a34a', '#b42318', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];

/** A uPlot time series that follows its container's width. */
export function TimeseriesChart({ series, unit }: { series: MatrixSeries[]; unit?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { labels, data } = toUplotData(series);
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: 180,
        legend: { show: labels.length > 1 },
        scales: { x: { time: true } },
        axes: [{}, { values: (_u, vals) => vals.map((v) => `${v}${unit ? ` ${unit}` : ''}`), size: 60 }],
        series: [{}, ...labels.map((label, i) => ({ label, stroke: COLORS[i % COLORS.length], width: 2 }))],
      },
      data as uPlot.AlignedData,
      el,
    );
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height: 180 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [series, unit]);
  return <div ref={box} className="mon-chart" role="img" aria-label={`chart of ${series.length} series`} />;
}
