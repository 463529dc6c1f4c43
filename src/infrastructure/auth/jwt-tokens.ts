import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { TokenService } from '../../application/auth/auth.ports.js';
import type { Principal } from '../../domain/users.js';
import { DataDirError, makeDataDir } from '../db/data-dir.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * HS256 bearer tokens with claims sub (user id), role, exp and ver, the account's token version that
 * sign-out bumps (docs/decisions/0100-accounts-passwords-sign-out-registration.md).
 */
export class JwtTokens implements TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(principal: Principal, tokenVersion: number) {
    const token = await new SignJWT({ role: principal.role, ver: tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(principal.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
    return { token, expiresIn: this.ttlSeconds };
  }

  async verify(token: string): Promise<(Principal & { tokenVersion: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const role = payload.role;
      if (typeof payload.sub !== 'string' || !UUID.test(payload.sub)) return null;
      if (role !== 'user' && role !== 'admin') return null;
      if (typeof payload.exp !== 'number') return null;
      // tokens from before sign-out revocation carry no version: they count as version 0
      const ver = payload.ver ?? 0;
      if (typeof ver !== 'number' || !Number.isInteger(ver)) return null;
      return { userId: payload.sub, role, tokenVersion: ver };
    } catch {
      return null;
    }
  }
}

/** The embedded default: a secret generated once into DATA_DIR, so tokens survive restarts. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  makeDataDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new DataDirError(file, e.code ?? 'EIO', e.message);
  }
  return secret;
}
