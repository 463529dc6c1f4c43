import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI's way into a running service on the embedded database (PGlite allows one process per
 * data directory). At each start the api role makes a random secret and writes it with its own
 * address and pid into `DATA_DIR/local-admin.json`, readable by the service's user only (0600),
 * beside `pglite.lock`; the CLI that finds the directory locked reads it and calls the admin API
 * with `Authorization: Local <secret>`, which the api accepts only on a connection from this
 * machine. The file goes when the service stops; a new start makes a new secret.
 */
export interface LocalAdminFile {
  pid: number;
  /** base URL of the api role, reachable from this machine */
  url: string;
  secret: string;
}

export const LOCAL_ADMIN_FILE = 'local-admin.json';

export const newLocalAdminSecret = (): string => randomBytes(32).toString('base64url');

/** The address a client on this machine uses for a server listening on `host`. */
export function localUrl(address: string, port: number): string {
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Writes the file whole (a temporary file renamed into place) and answers its removal. */
export function writeLocalAdminFile(dataDir: string, content: LocalAdminFile): () => void {
  const path = join(dataDir, LOCAL_ADMIN_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(content), { mode: 0o600 });
  renameSync(tmp, path);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    try {
      if (readLocalAdminFile(dataDir)?.pid === content.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}

export function readLocalAdminFile(dataDir: string): LocalAdminFile | null {
  try {
    const parsed = JSON.parse(
      readFileSync(join(dataDir, LOCAL_ADMIN_FILE), 'utf8'),
    ) as Partial<LocalAdminFile>;
    return typeof parsed.pid === 'number' &&
      typeof parsed.url === 'string' &&
      typeof parsed.secret === 'string'
      ? (parsed as LocalAdminFile)
      : null;
  } catch {
    return null;
  }
}
