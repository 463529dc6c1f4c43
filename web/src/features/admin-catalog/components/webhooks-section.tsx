import { useState, type FormEvent } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import { clearIfUnchanged, sentForm } from '../../../lib/forms';
import { formatDate } from '../../../lib/format';
import { Empty, ErrorState, Loading } from '../../../lib/ui';
import {
  WEBHOOK_EVENTS,
  useWebhookDeliveries,
  useWebhookWrites,
  useWebhooks,
  type Webhook,
  type WebhookCreated,
} from '../api/webhooks';
import { webhookMessages } from '../webhook-messages';
import { WriteError } from './write-error';
import './catalog-tables.css';
import './webhooks.css';

/** The endpoint's last deliveries, each with its attempts, and a resend. */
function Deliveries({ hook }: { hook: Webhook }) {
  const { locale } = useI18n();
  const text = useT(webhookMessages);
  const list = useWebhookDeliveries(hook.id);
  const { resend } = useWebhookWrites();
  if (list.isLoading) return <Loading />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const items = list.data?.items ?? [];
  if (!items.length) return <Empty>{text.t('noDeliveries')}</Empty>;
  return (
    <div className="table-wrap">
      <WriteError writes={[resend]} />
      <table className="catalog-table" data-testid="webhook-deliveries">
        <thead>
          <tr>
            <th>{text.t('event')}</th>
            <th>{text.t('status')}</th>
            <th>{text.t('attempts')}</th>
            <th>{text.t('last')}</th>
            <th>{text.t('when')}</th>
            <th>{text.t('actions')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => {
            const last = d.attempts.at(-1);
            return (
              <tr key={d.id} data-testid="webhook-delivery">
                <td data-label={text.t('event')}>{text.tx(`event.${d.event}`, d.event)}</td>
                <td data-label={text.t('status')}>
                  <span className={`badge status-${d.status}`}>
                    {text.tx(`status.${d.status}`, d.status)}
                  </span>
                </td>
                <td data-label={text.t('attempts')}>{d.attempts.length}</td>
                <td data-label={text.t('last')}>
                  {last
                    ? `${last.status_code ?? text.t('noAnswer')} · ${last.latency_ms} ms${last.error ? ` · ${last.error}` : ''}`
                    : '—'}
                </td>
                <td data-label={text.t('when')}>{formatDate(d.created_at, locale)}</td>
                <td data-label={text.t('actions')}>
                  <button
                    type="button"
                    disabled={d.status === 'pending' || d.status === 'retrying' || resend.isPending}
                    onClick={() => resend.mutate({ id: hook.id, deliveryId: d.id })}
                  >
                    {text.t('resend')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function WebhooksSection() {
  const { t } = useI18n();
  const text = useT(webhookMessages);
  const list = useWebhooks();
  const { create, update, remove } = useWebhookWrites();
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const sent = sentForm(form);
    const secret = String(f.get('secret') ?? '').trim();
    create.mutate(
      {
        url: String(f.get('url')).trim(),
        events: f.getAll('events').map(String),
        ...(secret ? { secret } : {}),
      },
      {
        onSuccess: (hook) => {
          setCreated(hook);
          clearIfUnchanged(form, sent);
        },
      },
    );
  };
  return (
    <section
      className="admin-section card webhooks-section"
      aria-labelledby="webhooks-title"
      data-testid="webhooks"
    >
      <h2 id="webhooks-title">{text.t('title')}</h2>
      <p className="hint">{text.t('intro')}</p>
      <WriteError writes={[create, update, remove]} />
      {created && (
        <div className="secret-once" role="status" data-testid="webhook-secret">
          <p>{text.t('secretOnce', { url: created.url })}</p>
          <code>{created.secret}</code>
          <button type="button" onClick={() => setCreated(null)}>
            {text.t('dismiss')}
          </button>
        </div>
      )}
      {list.isLoading ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data?.length ? (
        <Empty>{text.t('none')}</Empty>
      ) : (
        <div className="table-wrap">
          <table className="catalog-table">
            <thead>
              <tr>
                <th>{text.t('url')}</th>
                <th>{text.t('events')}</th>
                <th>{text.t('enabled')}</th>
                <th>{text.t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((hook) => [
                <tr key={hook.id} data-testid="webhooks-row">
                  <td data-label={text.t('url')}>
                    <span className="cell url-cell">{hook.url}</span>
                  </td>
                  <td data-label={text.t('events')}>
                    <span className="cell">
                      {hook.events.map((e) => text.tx(`event.${e}`, e)).join(', ')}
                    </span>
                  </td>
                  <td data-label={text.t('enabled')}>
                    <input
                      type="checkbox"
                      aria-label={`${text.t('enabled')}: ${hook.url}`}
                      checked={hook.enabled}
                      onChange={(e) => update.mutate({ id: hook.id, enabled: e.target.checked })}
                    />
                  </td>
                  <td className="row-actions" data-label={text.t('actions')}>
                    <div className="actions">
                      <button
                        type="button"
                        aria-expanded={open === hook.id}
                        onClick={() => setOpen(open === hook.id ? null : hook.id)}
                      >
                        {open === hook.id ? text.t('hideDeliveries') : text.t('deliveries')}
                      </button>
                      <button type="button" className="danger" onClick={() => remove.mutate(hook.id)}>
                        {t('common.delete')}
                      </button>
                    </div>
                  </td>
                </tr>,
                open === hook.id ? (
                  <tr key={`${hook.id}-deliveries`} className="edit-row">
                    <td colSpan={4}>
                      <Deliveries hook={hook} />
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
        </div>
      )}
      <form className="row" onSubmit={submit} aria-label={text.t('add')}>
        <label>
          {text.t('url')}
          <input name="url" type="url" required pattern="https?://.+" placeholder="https://" />
        </label>
        <fieldset className="checks">
          <legend>{text.t('events')}</legend>
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} className="checkbox">
              <input type="checkbox" name="events" value={e} defaultChecked={e === 'article.published'} />
              {text.t(`event.${e}`)}
            </label>
          ))}
        </fieldset>
        <label>
          {text.t('secret')}
          <input name="secret" type="password" autoComplete="new-password" minLength={16} />
        </label>
        <button type="submit" disabled={create.isPending}>
          {text.t('add')}
        </button>
      </form>
    </section>
  );
}
