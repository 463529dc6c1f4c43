import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

export interface UChartProps {
  labels: string[];
  /** x (unix seconds) then one column per label */
  data: (number | null)[][];
  /** the chosen range in unix seconds: the x axis spans it whatever the data covers */
  xMin: number;
  xMax: number;
  unit?: string;
  height?: number;
  /** mark every data point (e.g. one per day) */
  points?: boolean;
  ariaLabel: string;
}

const ZH_NAMES: uPlot.DateNames = {
  MMMM: Array.from({ length: 12 }, (_, i) => `${i + 1}月`),
  MMM: Array.from({ length: 12 }, (_, i) => `${i + 1}月`),
  WWWW: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
  WWW: ['日', '一', '二', '三', '四', '五', '六'],
};

/** The page's colours (CSS variables), read when drawing: light and dark schemes both stay readable. */
function themeOf(el: HTMLElement) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--mon-axis', v('--fg', '#1b1d21')),
    grid: v('--mon-grid', v('--border', '#dcdfe4')),
    series: Array.from({ length: 8 }, (_, i) => v(`--mon-series-${i + 1}`, '#2457c5')),
  };
}

/** Re-renders when the operating system switches between light and dark. */
function useColorScheme() {
  const [dark, setDark] = useState(() => matchMedia('(prefers-color-scheme: dark)').matches);
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return dark;
}

/**
 * A hover tooltip (uPlot plugin): the time under the cursor and every series' value there, next to
 * the cursor and kept inside the plot.
 */
function tooltipPlugin(fmtTime: (s: number) => string, fmtValue: (v: number | null) => string): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'mon-tooltip';
        tip.setAttribute('role', 'tooltip');
        tip.style.display = 'none';
        u.over.appendChild(tip);
        u.over.addEventListener('mouseleave', () => (tip.style.display = 'none'));
      },
      setCursor: (u) => {
        const { idx, left, top } = u.cursor;
        if (idx === null || idx === undefined || left === undefined || left < 0) {
          tip.style.display = 'none';
          return;
        }
        const rows = u.series
          .slice(1)
          .map((s, i) => ({ s, v: u.data[i + 1]![idx] ?? null }))
          .filter(({ s }) => s.show !== false);
        tip.replaceChildren();
        const head = document.createElement('div');
        head.className = 'mon-tooltip-time';
        head.textContent = fmtTime(u.data[0]![idx]!);
        tip.appendChild(head);
        for (const { s, v } of rows) {
          const row = document.createElement('div');
          const dot = document.createElement('span');
          dot.className = 'mon-tooltip-dot';
          dot.style.background = String(s.stroke instanceof Function ? s.stroke(u, 1) : s.stroke);
          row.append(dot, `${String(s.label)}: ${fmtValue(v)}`);
          tip.appendChild(row);
        }
        tip.style.display = 'block';
        const w = u.over.clientWidth;
        const x = left + 12 + tip.offsetWidth > w ? Math.max(0, left - 12 - tip.offsetWidth) : left + 12;
        tip.style.left = `${x}px`;
        tip.style.top = `${Math.max(0, (top ?? 0) - 10)}px`;
      },
    },
  };
}

/** A uPlot chart that follows its container's width, with a legend and a hover tooltip. */
export function UChart({ labels, data, xMin, xMax, unit, height = 180, points, ariaLabel }: UChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useColorScheme();
  const { locale, t } = useT(monMessages);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const theme = themeOf(el);
    el.dataset.axisColor = theme.fg;
    const names = locale === 'zh-TW' ? ZH_NAMES : undefined;
    const fullTime = uPlot.fmtDate(
      locale === 'zh-TW' ? '{YYYY}/{M}/{D} {HH}:{mm}' : '{YYYY}-{MM}-{DD} {HH}:{mm}',
    );
    const fmtValue = (v: number | null) =>
      v === null || v === undefined
        ? '—'
        : `${v.toLocaleString(locale, { maximumFractionDigits: 2 })}${unit ? ` ${unit}` : ''}`;
    const axis = { stroke: theme.fg, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid } };
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        fmtDate: (tpl) => uPlot.fmtDate(tpl, names),
        legend: { show: true, live: true },
        cursor: { points: { size: 6 } },
        scales: { x: { time: true, range: () => [xMin, xMax] } },
        axes: [
          axis,
          {
            ...axis,
            size: 60,
            values: (_u, vals) => vals.map((v) => `${v.toLocaleString(locale)}${unit ? ` ${unit}` : ''}`),
          },
        ],
        series: [
          { label: t('mon.chart.time'), value: (_u, v) => (v === null ? '—' : fullTime(new Date(v * 1000))) },
          ...labels.map((label, i) => {
            const color = theme.series[i % theme.series.length]!;
            return {
              label,
              stroke: color,
              width: 2,
              value: (_u: uPlot, v: number | null) => fmtValue(v),
              ...(points ? { points: { show: true, size: 6, fill: color } } : {}),
            };
          }),
        ],
        plugins: [tooltipPlugin((s) => fullTime(new Date(s * 1000)), fmtValue)],
        hooks: {
          // what was drawn, for tests and debugging: the x scale and the axis colour in use
          setScale: [
            (u, key) => {
              if (key !== 'x') return;
              el.dataset.xMin = String(u.scales.x!.min);
              el.dataset.xMax = String(u.scales.x!.max);
            },
          ],
        },
      },
      data as uPlot.AlignedData,
      el,
    );
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [labels, data, xMin, xMax, unit, height, points, dark, locale, t]);
  return <div ref={box} className="mon-chart" role="img" aria-label={ariaLabel} />;
}
