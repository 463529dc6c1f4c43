import { useState } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import type { Provider } from '../api/catalog';
import { catalogMessages } from '../messages';
import { CrudSection, NameField } from './crud-section';
import { ProviderTestButton } from './provider-test-button';

/** scheme, host and port: the server's rule for when a stored key stays with its provider */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The provider fields shared by the create and the edit form (the key is write-only). While the
 * address typed is on another origin than the stored one, the form says that the stored key is
 * dropped on save unless a new one is typed (the server drops it; it never follows the address).
 */
function ProviderFields({ p }: { p?: Provider }) {
  const { t } = useI18n();
  const text = useT(catalogMessages);
  const [baseUrl, setBaseUrl] = useState(p?.base_url ?? '');
  const [keyTyped, setKeyTyped] = useState(false);
  const moved =
    Boolean(p?.has_api_key) && originOf(baseUrl) !== null && originOf(baseUrl) !== originOf(p!.base_url);
  return (
    <>
      <NameField defaultValue={p?.name} />
      <label>
        {t('admin.catalog.type')}
        <select name="type" defaultValue={p?.type ?? 'text'}>
          <option value="text">text</option>
          <option value="multimodal">multimodal</option>
        </select>
      </label>
      <label>
        {t('admin.catalog.baseUrl')}
        <input
          name="base_url"
          type="url"
          required
          pattern="https?://.+"
          defaultValue={p?.base_url}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      <label>
        {t('admin.catalog.model')}
        <input name="model" required defaultValue={p?.model} />
      </label>
      <label>
        {t('admin.catalog.imageModel')}
        <input name="image_model" defaultValue={p?.image_model ?? ''} />
      </label>
      <label>
        {t('admin.catalog.apiKey')}
        <input
          name="api_key"
          type="password"
          autoComplete="new-password"
          placeholder={
            p
              ? moved
                ? text.t('keyForNewAddress')
                : p.has_api_key
                  ? text.t('keyUnchanged')
                  : text.t('keyNone')
              : undefined
          }
          aria-describedby={moved && !keyTyped ? `key-moves-${p!.id}` : undefined}
          onChange={(e) => setKeyTyped(e.target.value.trim() !== '')}
        />
      </label>
      {moved && !keyTyped && (
        <p id={`key-moves-${p!.id}`} className="key-moves" role="status">
          {text.t('keyMoves')}
        </p>
      )}
      {p?.has_api_key && (
        <label className="checkbox">
          <input type="checkbox" name="clear_api_key" />
          {text.t('clearKey')}
        </label>
      )}
    </>
  );
}

const opt = (f: FormData, k: string) => String(f.get(k) ?? '').trim() || null;

export function ProvidersSection() {
  const { t } = useI18n();
  return (
    <CrudSection<Provider>
      resource="providers"
      title={t('admin.catalog.providers')}
      columns={[
        t('admin.catalog.name'),
        t('admin.catalog.type'),
        t('admin.catalog.model'),
        t('admin.catalog.baseUrl'),
      ]}
      cells={(p) => [
        <>
          {p.name} {p.has_api_key && <span className="badge">{t('admin.catalog.hasKey')}</span>}
        </>,
        p.type,
        `${p.model}${p.image_model ? ` / ${p.image_model}` : ''}`,
        <span className="url-cell">{p.base_url}</span>,
      ]}
      toggle={{ label: t('admin.catalog.active'), field: 'is_active' }}
      toBody={(f) => ({
        name: String(f.get('name')),
        type: String(f.get('type')),
        base_url: String(f.get('base_url')),
        model: String(f.get('model')),
        image_model: opt(f, 'image_model'),
        api_key: opt(f, 'api_key'),
        is_active: true,
      })}
      edit={{
        fields: (p) => <ProviderFields p={p} />,
        // the key is sent only when a new one is typed (or the admin removes it)
        toPatch: (f) => {
          const key = opt(f, 'api_key');
          return {
            name: String(f.get('name')),
            type: String(f.get('type')),
            base_url: String(f.get('base_url')),
            model: String(f.get('model')),
            image_model: opt(f, 'image_model'),
            ...(key ? { api_key: key } : f.get('clear_api_key') === 'on' ? { api_key: null } : {}),
          };
        },
      }}
      rowActions={(p) => <ProviderTestButton provider={p} />}
      fields={<ProviderFields />}
    />
  );
}
