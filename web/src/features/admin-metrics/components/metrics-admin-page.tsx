import { useI18n } from '../../../lib/i18n';
import { MetricIcon } from '../../../lib/metric-icon';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import {
  useAdminMetricDefinitions,
  useIconWhitelist,
  useUpdateMetricDefinition,
  type AdminMetricDefinition,
} from '../api/metric-catalog';

export default function MetricsAdminPage() {
  const { t } = useI18n();
  const defs = useAdminMetricDefinitions();
  const icons = useIconWhitelist();
  const update = useUpdateMetricDefinition();

  return (
    <section>
      <h1>{t('admin.metrics.title')}</h1>
      {update.isError && (
        <p className="form-error" role="alert">
          {errorMessage(update.error, t('common.error'))}
        </p>
      )}
      {defs.isLoading || icons.isLoading ? (
        <Loading />
      ) : defs.isError || icons.isError ? (
        <ErrorState error={defs.error ?? icons.error} onRetry={() => void defs.refetch()} />
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>{t('admin.metrics.key')}</th>
                <th>{t('admin.metrics.enabled')}</th>
                <th>{t('admin.metrics.icon')}</th>
                <th>{t('admin.metrics.format')}</th>
              </tr>
            </thead>
            <tbody>
              {defs.data?.map((d) => (
                <MetricRow
                  key={d.id}
                  def={d}
                  icons={icons.data?.icons ?? []}
                  busy={update.isPending}
                  onChange={(patch) => update.mutate({ id: d.id, ...patch })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function MetricRow({
  def,
  icons,
  busy,
  onChange,
}: {
  def: AdminMetricDefinition;
  icons: string[];
  busy: boolean;
  onChange(patch: { enabled?: boolean; icon_name?: string }): void;
}) {
  const { t, tx } = useI18n();
  const label = tx(def.label_i18n_key, def.metric_key);
  return (
    <tr data-metric-key={def.metric_key}>
      <th scope="row">
        <MetricIcon name={def.icon_name} /> {label} <code>{def.metric_key}</code>
      </th>
      <td>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={def.enabled}
            disabled={busy}
            onChange={(e) => onChange({ enabled: e.target.checked })}
            data-testid="metric-enabled"
          />
          <span className="visually-hidden">
            {t('admin.metrics.enabled')}: {label}
          </span>
        </label>
      </td>
      <td>
        <div
          className="icon-grid"
          role="radiogroup"
          aria-label={`${t('admin.metrics.icon')}: ${label}`}
          data-testid="icon-picker"
        >
          {icons.map((name) => (
            <button
              key={name}
              type="button"
              role="radio"
              aria-checked={def.icon_name === name}
              aria-label={name}
              title={name}
              data-icon-name={name}
              disabled={busy}
              className="icon-button"
              onClick={() => onChange({ icon_name: name })}
            >
              <MetricIcon name={name} />
            </button>
          ))}
        </div>
        {def.icon_name === null && <small>{t('admin.metrics.defaultIcon')}</small>}
      </td>
      <td>
        {def.format_hint}
        {def.unit ? ` (${def.unit})` : ''}
      </td>
    </tr>
  );
}
