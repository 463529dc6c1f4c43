import { PlugZap } from 'lucide-react';
import type { PanelDef, Store } from '../model/types';
import { storeOf } from '../model/types';
import type { StoreStatus } from '../model/use-dashboard';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

const STORE_VARS: Record<Store, { url: string; example: string }> = {
  logs: { url: 'MONITOR_LOGS_URL', example: 'http://127.0.0.1:3100' },
  traces: { url: 'MONITOR_TRACES_URL', example: 'http://127.0.0.1:3200' },
  metrics: { url: 'MONITOR_METRICS_URL', example: 'http://127.0.0.1:9090/prom' },
};
const STORES = ['logs', 'traces', 'metrics'] as const;

/**
 * The one compact card shown above panels that wait for a store: one row per store with its state
 * (the same on every tab, as the server told it), the variable to set and how many panels it feeds
 * (their names on hover); authentication and extra hosts folded away.
 */
export function SetupCard({ stores, panels }: { stores: StoreStatus; panels: PanelDef[] }) {
  const { t, tx } = useT(monMessages);
  const feeds = (store: Store) => [
    ...new Set(
      panels.filter((p) => storeOf(p.datasource) === store).map((p) => tx(`mon.panel.${p.id}`, p.title)),
    ),
  ];
  const badge = (status: StoreStatus[Store]) =>
    status === 'missing'
      ? { cls: 'mon-badge-error', text: t('mon.setup.missing') }
      : status === 'ok'
        ? { cls: 'mon-badge-ok', text: t('mon.setup.ok') }
        : status === 'configured'
          ? { cls: '', text: t('mon.setup.configured') }
          : { cls: '', text: t('mon.setup.unknown') };
  return (
    <section className="mon-setup" data-testid="setup-card" aria-labelledby="mon-setup-title">
      <h2 id="mon-setup-title">
        <PlugZap size={20} aria-hidden /> {t('mon.setup.title')}
      </h2>
      <p>
        {t('mon.setup.intro')} {t('mon.setup.service')}
      </p>
      <table className="mon-setup-table">
        <thead>
          <tr>
            <th scope="col">{t('mon.setup.col.store')}</th>
            <th scope="col">{t('mon.setup.col.state')}</th>
            <th scope="col">{t('mon.setup.col.set')}</th>
          </tr>
        </thead>
        <tbody>
          {STORES.map((store) => {
            const status = stores[store];
            const b = badge(status);
            const fed = feeds(store);
            return (
              <tr key={store} data-store={store} data-status={status ?? 'unknown'}>
                <th scope="row">
                  <span className="mon-setup-store-name">{t(`mon.store.${store}`)}</span>
                  {fed.length > 0 && (
                    <small className="mon-muted" title={fed.join(', ')}>
                      {' '}
                      · {t('mon.setup.panels', { count: fed.length })}
                    </small>
                  )}
                </th>
                <td>
                  <span className={`mon-badge ${b.cls}`}>{b.text}</span>
                </td>
                <td>
                  <code>{STORE_VARS[store].url}</code>{' '}
                  <small className="mon-muted">
                    {t('mon.setup.example', { example: STORE_VARS[store].example })}
                  </small>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <details className="mon-setup-more">
        <summary>{t('mon.setup.auth')}</summary>
        <p className="mon-muted">{t('mon.setup.var.prefix')}</p>
        <dl className="mon-setup-vars">
          <dt>
            <code>MONITOR_LOGS_USER</code>, <code>MONITOR_TRACES_USER</code>,{' '}
            <code>MONITOR_METRICS_USER</code>
          </dt>
          <dd>{t('mon.setup.var.storeUser')}</dd>
          <dt>
            <code>MONITOR_API_KEY</code>
          </dt>
          <dd>{t('mon.setup.var.apiKey')}</dd>
          <dt>
            <code>MONITOR_URL</code>, <code>MONITOR_ALLOWED_HOSTS</code>
          </dt>
          <dd>{t('mon.setup.var.url')}</dd>
        </dl>
      </details>
    </section>
  );
}
