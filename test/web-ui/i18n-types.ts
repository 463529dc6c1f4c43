/**
 * Compile-time checks of the translation API (`tsc -p test/web-ui`, part of `npm run typecheck`):
 * every line under `@ts-expect-error` must fail to compile; if the types stop refusing it, the
 * directive itself is reported as unused and the type check fails.
 */
import { defineMessages, namespaces, translator } from '../../web/src/lib/i18n-core';

const en = { a: 'A', b: 'B {x}', n_one: '{count} n', n_other: '{count} ns' };

export const exact = defineMessages('ok', en, { a: '甲', b: '乙 {x}', n_one: '{count}', n_other: '{count}' });

// @ts-expect-error a key missing in zh-TW
export const missing = defineMessages('m', en, { a: '甲', n_one: '{count}', n_other: '{count}' });

// @ts-expect-error an extra key in zh-TW (an object literal)
export const extra = defineMessages('e', en, { a: '甲', b: '乙', n_one: '', n_other: '', c: '丙' });

const zhWithExtra = { a: '甲', b: '乙', n_one: '', n_other: '', c: '丙' };
// @ts-expect-error an extra key in zh-TW (a variable, where no excess property check applies)
export const extraVar = defineMessages('v', en, zhWithExtra);

const { t } = translator(exact, 'en');
t('a');
t('b', { x: 1 });
t('n', { count: 2 });
// @ts-expect-error a plural family needs its count
t('n');
// @ts-expect-error a variant is not named directly
t('n_one', { count: 1 });
// @ts-expect-error an unknown key
t('zzz');

namespaces({ ok: exact });
// @ts-expect-error a namespace registered under another name
namespaces({ other: exact });
