import type { CommonPasswords } from '../../application/auth/auth.ports.js';

/**
 * The ~49,000 most common passwords of zxcvbn-ts (@zxcvbn-ts/language-common, MIT), compared
 * case-insensitively. The list is loaded on the first sign-up, so an idle process never holds it.
 */
export class ZxcvbnCommonPasswords implements CommonPasswords {
  private list: Promise<Set<string>> | undefined;

  async has(password: string): Promise<boolean> {
    this.list ??= import('@zxcvbn-ts/language-common').then(
      ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
    );
    return (await this.list).has(password.trim().toLowerCase());
  }
}
