import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDistCompiled, compileDist } from '../helpers/service-process.js';

// the service starts as `npm start` starts it, from dist/ (compiled once per test run): through tsx,
// a start as nobody could not use root's transform cache and compiled every module again
beforeAll(() => compileDist(), 300_000);

/** `node dist/main.js api` on a DATA_DIR that cannot be used: exit 1 and one line naming path and cause. */
function start(
  dataDir: string,
  asNobody: boolean,
  readOnlyMount?: string,
): Promise<{ code: number | null; stderr: string }> {
  assertDistCompiled();
  const node = [process.execPath, 'dist/main.js', 'api'];
  // a read-only file system: a tmpfs mounted read-only in a mount namespace of the child's own
  const [command, ...args] = readOnlyMount
    ? ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$MNT" && exec "$@"', 'sh', ...node]
    : node;
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, {
      env: {
        ...(readOnlyMount ? { MNT: readOnlyMount } : {}),
        PATH: process.env.PATH,
        HOME: tmpdir(),
        DATA_DIR: dataDir,
        API_PORT: '0',
        API_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        SCHEDULER_ENABLED: 'false',
      },
      // root writes anywhere: run as nobody, for whom a 0555 directory is read-only
      ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** mounting needs root (CAP_SYS_ADMIN) and util-linux's unshare */
const canMount = spawnSync('unshare', ['-m', 'true']).status === 0;

describe('DATA_DIR that cannot be used', () => {
  const root = mkdtempSync(join(tmpdir(), 'data-dir-'));
  chmodSync(root, 0o755);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const isRoot = process.getuid?.() === 0;

  it(
    'a read-only DATA_DIR exits 1 with the path and the cause in the message',
    { timeout: 60_000 },
    async () => {
      const dir = join(root, 'read-only');
      mkdirSync(dir);
      chmodSync(dir, 0o555);
      const { code, stderr } = await start(dir, isRoot);
      expect(code).toBe(1);
      expect(stderr).toContain(`DATA_DIR cannot be used: ${join(dir, 'pglite')}`);
      expect(stderr).toMatch(/permission denied|read-only/);
      expect(stderr).not.toMatch(/ErrnoError|PGlite failed/);
    },
  );

  it('a path through a file exits 1 naming it', { timeout: 60_000 }, async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const { code, stderr } = await start(join(file, 'data'), false);
    expect(code).toBe(1);
    expect(stderr).toContain(join(file, 'data'));
    expect(stderr).toContain('ENOTDIR');
  });

  it.skipIf(!canMount)(
    'a DATA_DIR to be made on a read-only file system names it, not "no such file or directory"',
    { timeout: 60_000 },
    async () => {
      const mnt = join(root, 'ro-mount');
      mkdirSync(mnt);
      const { code, stderr } = await start(join(mnt, 'data'), false, mnt);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `DATA_DIR cannot be used: ${join(mnt, 'data')}: the file system is read-only (EROFS)`,
      );
      expect(stderr).not.toMatch(/ENOENT|no such file/);
    },
  );

  it(
    'a DATA_DIR under a directory the service user may not write names the permission',
    { timeout: 60_000 },
    async () => {
      const parent = join(root, 'not-mine');
      mkdirSync(parent);
      chmodSync(parent, 0o555);
      const { code, stderr } = await start(join(parent, 'a', 'b'), isRoot);
      expect(code).toBe(1);
      expect(stderr).toContain(`DATA_DIR cannot be used: ${join(parent, 'a')}: permission denied`);
      expect(stderr).not.toMatch(/ENOENT|no such file/);
    },
  );
});
