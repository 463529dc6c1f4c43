import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * One process per PGlite data directory: a second PostgreSQL opening the same files corrupts them
 * (issue 15). The lock is a file beside the directory holding the owner's pid; a lock whose pid is
 * no longer alive (kill -9, power loss) is taken over. Released on close and on process exit.
 */
export class DataDirLockedError extends Error {
  readonly code = 'data_dir_locked';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `the database in ${dir} is in use by process ${pid} (a running service); stop it first, or ` +
        `start the job from the admin Jobs page`,
    );
    this.name = 'DataDirLockedError';
  }
}

interface LockFile {
  pid: number;
  host: string;
  started_at: string;
}

/** locks this process holds, by path: a second open inside one process is refused too */
const held = new Set<string>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const read = (path: string): LockFile | null => {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockFile>;
    return typeof parsed.pid === 'number' ? (parsed as LockFile) : null;
  } catch {
    return null;
  }
};

/**
 * Whether the lock's owner is gone: a dead pid, our own pid left by an earlier life (containers
 * reuse pid 1), or another host's (a container started anew on the same volume has a new name).
 */
const stale = (path: string, lock: LockFile | null): boolean =>
  !lock || lock.host !== hostname() || (lock.pid === process.pid ? !held.has(path) : !alive(lock.pid));

/** writes the lock whole, then links it into place: it never exists half-written, and only one wins */
function create(path: string): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  const body: LockFile = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * The pid of the live process that holds the lock of `dir`, or null when no one does (no lock, or a
 * stale one): a look, not a take. The CLI asks it first, so that a command beside a running service
 * goes to that service without loading the database and the rest of the service first.
 */
export function dataDirHolder(dir: string): number | null {
  const path = `${dir}.lock`;
  const lock = read(path);
  return lock && !stale(path, lock) ? lock.pid : null;
}

/**
 * Takes the lock of `dir` (the file `<dir>.lock`) or throws DataDirLockedError naming its owner.
 * Answers the release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = `${dir}.lock`;
  if (held.has(path)) throw new DataDirLockedError(dir, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path)) {
      held.add(path);
      const release = () => {
        if (!held.delete(path)) return;
        process.off('exit', release);
        try {
          if (read(path)?.pid === process.pid) unlinkSync(path);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    }
    const lock = read(path);
    if (!stale(path, lock)) throw new DataDirLockedError(dir, lock!.pid);
    // take the stale lock over: move it aside (one of two racing takers wins the rename), check
    // that what was moved is still the stale one, then create ours
    const aside = `${path}.${process.pid}.stale`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = read(aside);
    if (moved && lock && moved.pid !== lock.pid && !stale(path, moved)) {
      // another taker's fresh lock was moved: put it back and give up
      renameSync(aside, path);
      throw new DataDirLockedError(dir, moved.pid);
    }
    unlinkSync(aside);
  }
  const lock = read(path);
  throw new DataDirLockedError(dir, lock?.pid ?? -1);
}
