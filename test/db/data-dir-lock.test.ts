import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirHolder, DataDirLockedError, lockDataDir } from '../../src/infrastructure/db/data-dir-lock.js';

describe('the PGlite DATA_DIR lock', () => {
  const root = mkdtempSync(join(tmpdir(), 'dir-lock-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const lockOf = (dir: string) => JSON.parse(readFileSync(`${dir}.lock`, 'utf8')) as { pid: number };
  const writeLock = (dir: string, pid: number) =>
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({ pid, host: hostname(), started_at: new Date().toISOString() }),
    );

  it('holds the pid in a lock file, refuses a second open, and is free again once released', () => {
    const dir = join(root, 'a');
    const release = lockDataDir(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses a lock held by another live process and names it', async () => {
    const dir = join(root, 'b');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeLock(dir, other.pid!);
      const err = (() => {
        try {
          lockDataDir(dir);
        } catch (e) {
          return e as DataDirLockedError;
        }
      })();
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect(err!.code).toBe('data_dir_locked');
      expect(err!.pid).toBe(other.pid);
      expect(lockOf(dir).pid).toBe(other.pid);
      // the CLI's look before it loads anything: the holder, without taking or moving the lock
      expect(dataDirHolder(dir)).toBe(other.pid);
      expect(lockOf(dir).pid).toBe(other.pid);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
  });

  it('takes over a stale lock left by a dead process, and one of our own pid from an earlier life', () => {
    const dir = join(root, 'c');
    expect(dataDirHolder(dir)).toBeNull();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeLock(dir, Number(dead.stdout.toString()));
    // a stale lock has no holder: the CLI opens the directory itself (and takes the lock over)
    expect(dataDirHolder(dir)).toBeNull();
    const release = lockDataDir(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    release();
    // a container restarts with the same pid: a lock of our pid we do not hold is stale
    writeLock(dir, process.pid);
    lockDataDir(dir)();
    // an unreadable lock (the machine stopped while writing it) is stale too
    writeFileSync(`${dir}.lock`, '');
    lockDataDir(dir)();
  });
});
