import { useMemo } from 'react';
import { toUplotData } from '../model/panel-data';
import type { MatrixSeries } from '../model/types';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';
import { UChart } from './u-chart';

/** A panel's series over the chosen range ([start, end] in unix seconds), with legend and tooltip. */
export function TimeseriesChart({
  series,
  unit,
  window,
}: {
  series: MatrixSeries[];
  unit?: string;
  window: [number, number];
}) {
  const { t } = useT(monMessages);
  const { labels, data } = useMemo(() => toUplotData(series), [series]);
  return (
    <UChart
      labels={labels}
      data={data}
      xMin={window[0]}
      xMax={window[1]}
      unit={unit}
      ariaLabel={t('mon.chart', { n: series.length })}
    />
  );
}
