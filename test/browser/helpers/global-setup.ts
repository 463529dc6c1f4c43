import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ensureSpaBuilt } from '../../../src/web/spa-build.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Builds web/dist once per run (only when the sources changed), before any browser test file starts. */
export default async function setup() {
  await ensureSpaBuilt(ROOT, pino({ level: 'warn' }));
}
