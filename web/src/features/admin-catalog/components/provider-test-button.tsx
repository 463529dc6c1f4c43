import { useTestProvider } from '../api/catalog';
import { catalogMessages } from '../messages';
import { errorMessage } from '../../../lib/ui';
import { useI18n, useT } from '../../../lib/i18n';
import type { Provider } from '../api/catalog';

/** "Test": one small request to the provider; the result (model, latency, error) shows below. */
export function ProviderTestButton({ provider }: { provider: Provider }) {
  const { t } = useI18n();
  const text = useT(catalogMessages);
  const test = useTestProvider();
  const r = test.data;
  return (
    <>
      <button
        type="button"
        onClick={() => test.mutate(provider.id)}
        disabled={test.isPending}
        aria-label={`${text.t('test')}: ${provider.name}`}
      >
        {test.isPending ? text.t('testing') : text.t('test')}
      </button>
      {(r || test.isError) && (
        <span
          className={`provider-test-result ${r?.ok ? 'saved' : 'form-error'}`}
          role="status"
          data-testid="provider-test-result"
        >
          {r
            ? r.ok
              ? text.t('testOk', { model: r.model, ms: r.latency_ms })
              : text.t('testFailed', { model: r.model, ms: r.latency_ms, error: r.error ?? '' })
            : errorMessage(test.error, t('common.error'))}
        </span>
      )}
    </>
  );
}
