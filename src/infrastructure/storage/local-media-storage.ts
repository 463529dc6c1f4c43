import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import type { MediaStorage } from '../../application/reports/reports.ports.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** Files under DATA_DIR/media, public at `<publicBaseUrl>/media/<key>` (served by the api role). */
export class LocalMediaStorage implements MediaStorage {
  private readonly root: string;

  constructor(
    root: string,
    private readonly publicBaseUrl: string,
  ) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string | null {
    const path = resolve(this.root, key);
    return path.startsWith(this.root + sep) ? path : null;
  }

  async put(key: string, data: Buffer, _contentType: string): Promise<string> {
    const path = this.pathOf(key);
    if (!path) throw new Error(`invalid media key ${key}`);
    await mkdir(dirname(path), { recursive: true });
    // write then rename: a reader never sees half a file
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
    return `${this.publicBaseUrl}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async get(key: string) {
    const path = this.pathOf(key);
    const type = TYPES[extname(key).toLowerCase()];
    if (!path || !type) return null;
    try {
      return { data: await readFile(path), contentType: type };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
}

export const mediaRoot = (dataDir: string) => join(dataDir, 'media');
