import type { AddressInfo } from 'node:net';
import type { ServiceApi } from '../jobs/commands/command.js';
import {
  localUrl,
  newLocalAdminSecret,
  readLocalAdminFile,
  writeLocalAdminFile,
} from '../infrastructure/local-admin/local-admin-channel.js';
import { LocalAdminClient } from '../infrastructure/local-admin/local-admin-client.js';
import { dataDirHolder } from '../infrastructure/db/data-dir-lock.js';
import { embeddedDatabaseDir } from '../infrastructure/db/data-dir.js';

/**
 * The service's side of the CLI's local admin channel: a secret for this start when the database
 * is the embedded one (with PostgreSQL the CLI opens the database itself); `publish` writes it into
 * DATA_DIR once the api listens and answers its removal.
 */
export function localAdminChannel(kind: 'pglite' | 'postgres', dataDir: string) {
  if (kind !== 'pglite') return null;
  const secret = newLocalAdminSecret();
  return {
    secret,
    publish(address: AddressInfo | string | null): () => void {
      if (!address || typeof address === 'string') return () => undefined;
      return writeLocalAdminFile(dataDir, {
        pid: process.pid,
        url: localUrl(address.address, address.port),
        secret,
      });
    },
  };
}

/** The CLI's side: the running service holding DATA_DIR (process `pid`), when it published a channel. */
export function runningServiceApi(dataDir: string, pid: number): ServiceApi | null {
  const channel = readLocalAdminFile(dataDir);
  return channel && channel.pid === pid ? new LocalAdminClient(channel) : null;
}

/**
 * The pid of the live service that holds the embedded database in DATA_DIR, or null: a look at its
 * lock, nothing loaded or taken (the CLI asks before it builds a container of its own).
 */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  return dataDirHolder(embeddedDatabaseDir(dataDir));
}
