import { PlugZap } from 'lucide-react';
import type { PanelDef, Store } from '../model/types';
import { storeOf } from '../model/types';
import type { StoreStatus } from '../model/use-dashboard';
import { useMonT } from '../i18n/use-mon-t';

const STORE_VARS: Record<Store, { url: string; user: string; example: string }> = {
  logs: { url: 'MONITOR_LOGS_URL', user: 'MONITOR_LOGS_USER', example: 'http://127.0.0.1:3100' },
  traces: { url: 'MONITOR_TRACES_URL', user: 'MONITOR_TRACES_USER', example: 'http://127.0.0.1:3200' },
  metrics: {
    url: 'MONITOR_METRICS_URL',
    user: 'MONITOR_METRICS_USER',
    example: 'http://127.0.0.1:9090/prom',
  },
};

/**
 * The one card shown instead of panel placeholders: the variables to set, each store's state as the
 * server reported it (a 503 names the missing store), and the panels each store feeds.
 */
export function SetupCard({ stores, panels }: { stores: StoreStatus; panels: PanelDef[] }) {
  const { t, tp } = useMonT();
  const feeds = (store: Store) => [
    ...new Set(
      panels.filter((p) => storeOf(p.datasource) === store).map((p) => tp(`mon.panel.${p.id}`, p.title)),
    ),
  ];
  return (
    <section className="mon-setup" data-testid="setup-card" aria-labelledby="mon-setup-title">
      <h2 id="mon-setup-title">
        <PlugZap size={20} aria-hidden /> {t('mon.setup.title')}
      </h2>
      <p>{t('mon.setup.intro')}</p>
      <h3>{t('mon.setup.common')}</h3>
      <dl className="mon-setup-vars">
        <dt>
          <code>MONITOR_API_KEY</code>
        </dt>
        <dd>{t('mon.setup.var.apiKey')}</dd>
        <dt>
          <code>MONITOR_URL</code>, <code>MONITOR_ALLOWED_HOSTS</code>
        </dt>
        <dd>{t('mon.setup.var.url')}</dd>
      </dl>
      {(['logs', 'traces', 'metrics'] as const).map((store) => {
        const name = t(`mon.store.${store}`);
        const status = stores[store];
        return (
          <div key={store} className="mon-setup-store" data-store={store} data-status={status ?? 'unknown'}>
            <h3>
              <span className="mon-setup-store-name">{name}</span>{' '}
              <span
                className={`mon-badge ${status === 'missing' ? 'mon-badge-error' : status === 'ok' ? 'mon-badge-ok' : ''}`}
              >
                {t(
                  status === 'missing'
                    ? 'mon.setup.missing'
                    : status === 'ok'
                      ? 'mon.setup.ok'
                      : 'mon.setup.unknown',
                )}
              </span>
            </h3>
            <dl className="mon-setup-vars">
              <dt>
                <code>{STORE_VARS[store].url}</code>
              </dt>
              <dd>{t('mon.setup.var.storeUrl', { store: name, example: STORE_VARS[store].example })}</dd>
              <dt>
                <code>{STORE_VARS[store].user}</code>
              </dt>
              <dd>{t('mon.setup.var.storeUser', { store: name })}</dd>
            </dl>
            {feeds(store).length > 0 && (
              <p className="mon-muted">{t('mon.setup.feeds', { panels: feeds(store).join(', ') })}</p>
            )}
          </div>
        );
      })}
      <p className="mon-muted">{t('mon.setup.service')}</p>
    </section>
  );
}
