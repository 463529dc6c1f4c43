import { createHash, randomBytes, randomInt } from 'node:crypto';
import { conflict, forbidden, invalid, notConfigured, notFound } from '../../domain/errors.js';
import type { Locale, Principal, Role, User } from '../../domain/users.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { Mailer } from '../reports/reports.ports.js';
import type { PasswordHasher, PasswordResetRepository, UserRepository } from './auth.ports.js';
import { normalizeEmail, toUserOut, type AuthService, type UserOut } from './auth.service.js';
import { resetMail } from './reset-mail.js';

export interface AccountOut extends UserOut {
  disabled: boolean;
  created_at: string;
}

export type PasswordResetOut =
  { mode: 'link'; url: string; expires_at: string } | { mode: 'temporary'; password: string };

export interface AccountsOptions {
  /** the site root the reset links point to (PUBLIC_BASE_URL) */
  publicBaseUrl: string;
  /** a link asked for by e-mail: one hour */
  emailLinkTtlSeconds?: number;
  /** a link an admin hands over (chat, in person): one day */
  adminLinkTtlSeconds?: number;
  /** one e-mail per address in this window, however often it is asked for */
  emailIntervalSeconds?: number;
}

const toAccountOut = (u: User): AccountOut => ({
  ...toUserOut(u),
  disabled: u.disabledAt !== null,
  created_at: u.createdAt.toISOString(),
});

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Letters and digits that cannot be mistaken for each other when read aloud or copied by hand. */
const READABLE = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 16 of 54 symbols: ~92 bits, far beyond any common-password list and the 10-character minimum */
const temporaryPassword = () =>
  Array.from({ length: 16 }, () => READABLE[randomInt(READABLE.length)]).join('');

/**
 * Account management: the admin Users page (list, create, promote, demote, disable, reset) and
 * the password reset links (by e-mail or handed over by an admin).
 */
export class AccountsService {
  private readonly emailTtl: number;
  private readonly adminTtl: number;
  private readonly emailInterval: number;

  constructor(
    private readonly users: UserRepository,
    private readonly resets: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly options: AccountsOptions,
  ) {
    this.emailTtl = options.emailLinkTtlSeconds ?? 3600;
    this.adminTtl = options.adminLinkTtlSeconds ?? 86_400;
    this.emailInterval = options.emailIntervalSeconds ?? 300;
  }

  /** whether the sign-in page offers "Forgot password" (an e-mail can be sent) */
  resetByEmail(): boolean {
    return this.mailer.configured;
  }

  async list(query: { search?: string; limit: number; offset: number }) {
    const { items, total } = await this.users.list(query);
    return { items: items.map(toAccountOut), total };
  }

  async get(id: string): Promise<AccountOut> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('user');
    return toAccountOut(user);
  }

  /**
   * The Users page's "Add user" and the CLI's user:create. With `updateExisting` (the CLI) an
   * account of that e-mail gets the password (and the admin role when asked) instead of a 409.
   */
  async create(input: {
    email: string;
    password: string;
    display_name?: string | null;
    role: Role;
    update_existing?: boolean;
  }): Promise<{ user: AccountOut; created: boolean }> {
    if (input.update_existing) {
      const { user, created } = await this.auth.ensureUser({
        email: input.email,
        password: input.password,
        role: input.role,
        displayName: input.display_name ?? undefined,
      });
      return { user: await this.get(user.id), created };
    }
    await this.auth.checkPassword(input.password);
    const email = normalizeEmail(input.email);
    if (await this.users.findByEmail(email))
      throw conflict('an account with this e-mail exists', 'email_taken');
    const { user } = await this.auth.ensureUser({
      email,
      password: input.password,
      role: input.role,
      displayName: input.display_name?.trim() || undefined,
    });
    this.log.info({ event: 'auth.user_created', user_id: user.id, role: user.role });
    return { user: await this.get(user.id), created: true };
  }

  /**
   * Promote or demote, disable (no sign-in; every token stops working at once) or enable, in one
   * change: the last enabled admin keeps the role and stays enabled (409 `last_admin`).
   */
  async update(
    actor: Principal,
    id: string,
    change: { role?: Role; disabled?: boolean },
  ): Promise<AccountOut> {
    await this.change(id, change);
    this.log.info({
      event: 'auth.account_changed',
      user_id: id,
      ...change,
      by: actor.local ? 'cli' : actor.userId,
    });
    return this.get(id);
  }

  /**
   * An admin resets a user's password: a one-time link (the password stays until the link is
   * used) or a temporary password (set now, every session signed out). Either is answered once and
   * stored only as a hash.
   */
  async resetPassword(actor: Principal, id: string, mode: 'link' | 'temporary'): Promise<PasswordResetOut> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('user');
    if (user.disabledAt)
      throw conflict('enable the account before resetting its password', 'account_disabled');
    this.log.info({
      event: 'auth.password_reset_by_admin',
      user_id: id,
      mode,
      by: actor.local ? 'cli' : actor.userId,
    });
    if (mode === 'link') {
      const { url, expiresAt } = await this.issueLink(id, 'admin', this.adminTtl);
      return { mode, url, expires_at: expiresAt.toISOString() };
    }
    const password = temporaryPassword();
    await this.setPassword(id, password);
    return { mode, password };
  }

  /**
   * "Forgot password": e-mails a one-hour link when the address belongs to an enabled account.
   * The answer is the same either way (nothing reveals whether an account exists), and an address
   * gets at most one e-mail per few minutes however often it is asked for.
   */
  async requestReset(input: { email: string; locale?: Locale }): Promise<void> {
    if (!this.mailer.configured)
      throw notConfigured(
        'password reset by e-mail needs SMTP_URL; ask an administrator',
        'mail_not_configured',
      );
    const user = await this.users.findByEmail(normalizeEmail(input.email));
    if (!user || user.disabledAt) {
      this.log.info({ event: 'auth.reset_requested', sent: false });
      return;
    }
    const since = new Date(this.clock.now().getTime() - this.emailInterval * 1000);
    if (await this.resets.emailedSince(user.id, since)) {
      this.log.info({
        event: 'auth.reset_requested',
        sent: false,
        user_id: user.id,
        reason: 'recently_sent',
      });
      return;
    }
    const { url } = await this.issueLink(user.id, 'email', this.emailTtl);
    const mail = resetMail(input.locale ?? 'en', url, Math.round(this.emailTtl / 60));
    // sent after answering: neither the answer nor its timing says whether the account exists
    void this.mailer.send({ to: user.email, ...mail }).then(
      () => this.log.info({ event: 'auth.reset_requested', sent: true, user_id: user.id }),
      (err: unknown) => this.log.warn({ event: 'auth.reset_mail_failed', user_id: user.id, err }),
    );
  }

  /** Sets the new password with a link's token; the link is used up, every session signed out. */
  async confirmReset(input: { token: string; password: string }) {
    await this.auth.checkPassword(input.password);
    const userId = await this.resets.consume(hashToken(input.token), this.clock.now());
    if (!userId)
      throw invalid(
        'this reset link is not valid: it was used, it expired, or it was replaced',
        'reset_link_invalid',
      );
    const user = await this.users.findById(userId);
    if (!user || user.disabledAt)
      throw forbidden('this account is disabled; ask an administrator', 'account_disabled');
    await this.setPassword(userId, input.password);
    this.log.info({ event: 'auth.password_reset', user_id: userId });
    return this.auth.session(user);
  }

  private async setPassword(id: string, password: string) {
    await this.users.update(id, { passwordHash: await this.hasher.hash(password) });
    await this.users.bumpTokenVersion(id);
    await this.resets.revokeAll(id, this.clock.now());
  }

  private async issueLink(userId: string, origin: 'email' | 'admin', ttlSeconds: number) {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + ttlSeconds * 1000);
    await this.resets.create({ userId, tokenHash: hashToken(token), origin, expiresAt });
    // in the fragment: the token never reaches a server log or a Referer header
    return { url: `${this.options.publicBaseUrl}/reset-password#token=${token}`, expiresAt };
  }

  private async change(id: string, change: { role?: Role; disabled?: boolean }) {
    const outcome = await this.users.changeAccess(id, change);
    if (outcome === 'not_found') throw notFound('user');
    if (outcome === 'last_admin')
      throw conflict('this is the last admin: promote another account first', 'last_admin');
  }
}
