import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/error-codes';
import { PIPELINE_STAGES, RUN_FIELDS, RUN_KINDS, RUN_STATUSES, RUN_TRIGGERS } from '../../src/domain/runs';
import { NAMESPACES } from '../../web/src/app/i18n-namespaces';

/**
 * Every string of the web app in both languages, namespace by namespace (web/src/app/i18n-namespaces.ts).
 * What the server can say is enumerated from the server's own lists (error codes, run kinds,
 * statuses, triggers and fields, pipeline stages), so a code or field added there without a message
 * here fails this test, in either language.
 */
type Dict = Record<string, string>;
const DICTS: Record<string, { en: Dict; zh: Dict }> = Object.fromEntries(
  Object.entries(NAMESPACES).map(([name, m]) => [name, { en: m.en, zh: m['zh-TW'] }]),
);
const { app, jobs, mon } = DICTS as Record<'app' | 'jobs' | 'mon', { en: Dict; zh: Dict }>;
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** the web app's source files, for the namespaces they define */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Strings that are the same in both languages on purpose: names of products and standards, and
 * examples. Anything else equal to its English is an untranslated string.
 */
const SAME_IN_BOTH = new Set(['app:articles.arxiv', 'sources:format.atom', 'sources:format.json']);

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** letters of a language once placeholders, URLs, code and variable names are taken out */
const words = (s: string) =>
  s
    .replace(/\{\w+\}/g, '')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, '')
    .replace(/[^\p{L}]/gu, '');

describe('locale completeness (en and zh-TW)', () => {
  it('lists every namespace the web app defines, each once', () => {
    const root = join(import.meta.dirname, '../../web/src');
    const defined = sourceFiles(root).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bdefineMessages\(\s*'([^']+)'/g)].map((m) => m[1]!),
    );
    expect(defined.length).toBeGreaterThan(5);
    expect([...defined].sort()).toEqual(Object.keys(NAMESPACES).sort());
    for (const [name, m] of Object.entries(NAMESPACES)) expect(m.namespace).toBe(name);
  });

  it('every plural variant has its `_other` in both languages, and no plain key shares its base', () => {
    const wrong: string[] = [];
    for (const [name, { en: e, zh: z }] of Object.entries(DICTS))
      for (const key of Object.keys(e)) {
        if (!PLURAL.test(key)) continue;
        const base = key.replace(PLURAL, '');
        if (!(`${base}_other` in e) || !(`${base}_other` in z))
          wrong.push(`${name}:${key} has no ${base}_other`);
        if (base in e) wrong.push(`${name}:${base} is both a key and a plural family`);
      }
    expect(wrong).toEqual([]);
  });

  it('every server error code has a message in both languages, and they differ', () => {
    const missing: string[] = [];
    for (const code of ERROR_CODES) {
      const key = `errors.${code}`;
      const e = app.en[key];
      const z = app.zh[key];
      if (!e) missing.push(`en ${key}`);
      if (!z) missing.push(`zh-TW ${key}`);
      else if (z === e) missing.push(`zh-TW ${key} is the English text`);
    }
    expect(missing).toEqual([]);
  });

  it('every run kind, status, trigger and summary field and every pipeline stage is named in both', () => {
    const need: [Dict, Dict, string][] = [
      ...RUN_KINDS.map((k): [Dict, Dict, string] => [jobs.en, jobs.zh, `jobs.kind.${k}`]),
      ...RUN_STATUSES.map((k): [Dict, Dict, string] => [jobs.en, jobs.zh, `jobs.status.${k}`]),
      ...RUN_TRIGGERS.map((k): [Dict, Dict, string] => [jobs.en, jobs.zh, `jobs.trigger.${k}`]),
      ...RUN_FIELDS.map((k): [Dict, Dict, string] => [jobs.en, jobs.zh, `jobs.field.${k}`]),
      ...PIPELINE_STAGES.map((k): [Dict, Dict, string] => [mon.en, mon.zh, `mon.stage.${k}`]),
    ];
    const missing: string[] = [];
    for (const [e, z, key] of need) {
      if (!e[key]) missing.push(`en ${key}`);
      if (!z[key]) missing.push(`zh-TW ${key}`);
      else if (z[key] === e[key]) missing.push(`zh-TW ${key} is the English text`);
    }
    expect(missing).toEqual([]);
  });

  it('every dictionary has the same keys and placeholders in both languages', () => {
    for (const [name, { en: e, zh: z }] of Object.entries(DICTS)) {
      expect(Object.keys(z).sort(), name).toEqual(Object.keys(e).sort());
      for (const key of Object.keys(e))
        expect(placeholders(z[key] ?? ''), `${name}:${key}`).toEqual(placeholders(e[key]!));
    }
  });

  it('no zh-TW string is left in English', () => {
    const untranslated: string[] = [];
    for (const [name, { en: e, zh: z }] of Object.entries(DICTS)) {
      for (const [key, text] of Object.entries(z)) {
        const id = `${name}:${key}`;
        if (SAME_IN_BOTH.has(id) || !words(e[key] ?? '')) continue;
        // Traditional Chinese text has Han characters; an English leftover has none
        if (text === e[key] || !/\p{Script=Han}/u.test(text)) untranslated.push(`${id}: ${text}`);
      }
    }
    expect(untranslated).toEqual([]);
  });

  it('the allowed exceptions are keys that exist and read the same in both', () => {
    for (const id of SAME_IN_BOTH) {
      const [name, key] = [id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1)];
      const dict = DICTS[name]!;
      expect(dict.en[key], id).toBeDefined();
      expect(dict.zh[key], id).toBe(dict.en[key]);
    }
  });
});
