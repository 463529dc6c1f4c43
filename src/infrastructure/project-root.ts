import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The project's root folder, the nearest one upwards from this module that holds package.json:
 * the checkout (or the image's /app) whether the code runs from src/ under tsx or from the bundle
 * in dist/, where every module's code sits at another depth than in src/.
 */
export function projectRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (root = dir);
}
