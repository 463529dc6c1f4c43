import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../infrastructure/project-root.js';

/** The `version` of the project's package.json. */
export function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
