import { describe, expect, it } from 'vitest';
import { monMessages } from '../../web/src/features/monitoring/i18n/messages';

const { en: monEn, 'zh-TW': monZhTW } = monMessages;

describe('monitoring page strings', () => {
  it('translates every key to zh-TW with the same placeholders', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, en] of Object.entries(monEn)) {
      const zh = monZhTW[key as keyof typeof monEn];
      expect(zh, key).toBeTruthy();
      expect(placeholders(zh), key).toEqual(placeholders(en));
    }
    expect(Object.keys(monZhTW).sort()).toEqual(Object.keys(monEn).sort());
  });

  it('names every panel of the catalog and every store error code', async () => {
    const { buildPanels } = await import('../../src/application/monitoring/panel-catalog.js');
    for (const p of buildPanels('24h', 'all', new Date()).panels)
      expect(monEn, p.id).toHaveProperty([`mon.panel.${p.id}`]);
    for (const code of ['bad_query', 'upstream_error', 'upstream_timeout', 'rate_limited', 'upstream_format'])
      expect(monEn).toHaveProperty([`mon.err.${code}`]);
  });
});
