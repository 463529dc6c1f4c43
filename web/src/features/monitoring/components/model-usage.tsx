import { useMemo } from 'react';
import type { ServiceStats } from '../api/monitor';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';
import { usageTable, type UsageGroup } from '../model/llm-usage';
import { Card } from './service-card';

/**
 * What the language model cost in the window: the totals, then calls and input/output tokens per
 * purpose over the whole window and for each day with calls (newest first). Days are UTC days, as
 * the server counts them.
 */
export function ModelUsage({ stats }: { stats: ServiceStats }) {
  const { t, tx, locale } = useT(monMessages);
  const table = useMemo(() => usageTable(stats.llm_usage_per_day), [stats]);
  const num = (v: number) => v.toLocaleString(locale);
  const title = t('mon.svc.llm');
  if (!table.days.length)
    return (
      <Card id="svc-llm" title={title} wide>
        <p className="state state-empty">{t('mon.svc.llm.none')}</p>
      </Card>
    );
  const dayName = (day: string) => {
    const d = new Date(`${day}T00:00:00Z`);
    return Number.isNaN(d.getTime())
      ? day
      : d.toLocaleDateString(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
  };
  const name = (purpose: string) => tx(`mon.purpose.${purpose}`, purpose);
  const total = table.window.total;
  const cols: Columns = {
    purpose: t('mon.svc.llm.purpose'),
    calls: t('mon.svc.llm.calls'),
    input: t('mon.svc.llm.input'),
    output: t('mon.svc.llm.output'),
  };
  return (
    <Card id="svc-llm" title={title} wide>
      <dl className="mon-llm-totals" data-testid="llm-totals">
        <div>
          <dt>{t('mon.svc.llm.totalCalls')}</dt>
          <dd>{num(total.calls)}</dd>
        </div>
        <div>
          <dt>{cols.input}</dt>
          <dd>{num(total.prompt_tokens)}</dd>
        </div>
        <div>
          <dt>{cols.output}</dt>
          <dd>{num(total.completion_tokens)}</dd>
        </div>
      </dl>
      <p className="mon-muted">{t('mon.svc.llm.note', { n: stats.days })}</p>
      <div className="mon-llm-wrap">
        <table className="mon-table mon-llm" aria-labelledby="panel-svc-llm">
          <thead>
            <tr>
              <th scope="col">{t('mon.svc.llm.day')}</th>
              <th scope="col">{cols.purpose}</th>
              <th scope="col" className="mon-num">
                {cols.calls}
              </th>
              <th scope="col" className="mon-num">
                {cols.input}
              </th>
              <th scope="col" className="mon-num">
                {cols.output}
              </th>
            </tr>
          </thead>
          {table.days.length > 1 && (
            <UsageRows
              cols={cols}
              num={num}
              name={name}
              label={t('mon.svc.days.n', { n: stats.days })}
              group={table.window}
              className="mon-llm-window"
            />
          )}
          {table.days.map((g) => (
            <UsageRows key={g.day} label={dayName(g.day)} group={g} cols={cols} num={num} name={name} />
          ))}
        </table>
      </div>
    </Card>
  );
}

type Columns = Record<'purpose' | 'calls' | 'input' | 'output', string>;

/** One group of rows (a day, or the whole window): its name once, then a row per purpose. */
function UsageRows({
  label,
  group,
  className,
  cols,
  num,
  name,
}: {
  label: string;
  group: UsageGroup;
  className?: string;
  cols: Columns;
  num: (v: number) => string;
  name: (purpose: string) => string;
}) {
  return (
    <tbody className={className} data-day={group.day || 'window'}>
      {group.purposes.map((p, i) => (
        <tr key={p.purpose}>
          {i === 0 && (
            <th scope="rowgroup" rowSpan={group.purposes.length} className="mon-llm-group">
              {label}
            </th>
          )}
          <td className="mon-llm-purpose" data-label={cols.purpose}>
            {name(p.purpose)}
          </td>
          <td className="mon-num" data-label={cols.calls}>
            {num(p.calls)}
          </td>
          <td className="mon-num" data-label={cols.input}>
            {num(p.prompt_tokens)}
          </td>
          <td className="mon-num" data-label={cols.output}>
            {num(p.completion_tokens)}
          </td>
        </tr>
      ))}
    </tbody>
  );
}
