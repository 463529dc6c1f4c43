import { conflict, forbidden, invalid, notFound, unauthorized } from '../../domain/errors.js';
import type { Locale, Principal, Role, User } from '../../domain/users.js';
import type { Logger } from '../shared/ports.js';
import type {
  CommonPasswords,
  PasswordHasher,
  PasswordResetRepository,
  TokenService,
  UserRepository,
} from './auth.ports.js';

export interface Session {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  user: UserOut;
}

export interface UserOut {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
}

export const toUserOut = (u: User): UserOut => ({
  id: u.id,
  email: u.email,
  display_name: u.displayName,
  role: u.role,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const MIN_PASSWORD_LENGTH = 10;

export interface AuthOptions {
  /** open: anyone may sign up; closed: accounts come from an admin only (CLI, ADMIN_EMAIL) */
  registration: 'open' | 'closed';
}

export class AuthService {
  /** A hash of a random password: verifying against it costs what a real verify costs. */
  private dummyHash: Promise<string>;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly log: Logger,
    private readonly commonPasswords: CommonPasswords,
    /** open reset links end when the password changes */
    private readonly resets: Pick<PasswordResetRepository, 'revokeAll'>,
    private readonly options: AuthOptions = { registration: 'open' },
  ) {
    this.dummyHash = hasher.hash(`dummy-${Math.random()}`);
  }

  registration(): { registration: 'open' | 'closed' } {
    return { registration: this.options.registration };
  }

  /** At least 10 characters, not only whitespace, not one of the most common passwords. */
  async checkPassword(password: string, path = '/body/password'): Promise<void> {
    const field = [{ path, message: '' }];
    if ([...password].length < MIN_PASSWORD_LENGTH)
      throw invalid(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`, 'weak_password', [
        { ...field[0]!, message: `at least ${MIN_PASSWORD_LENGTH} characters` },
      ]);
    if (!password.trim())
      throw invalid('the password cannot be only spaces', 'weak_password', [
        { ...field[0]!, message: 'not only whitespace' },
      ]);
    if (await this.commonPasswords.has(password))
      throw invalid('this password is too common, choose another', 'weak_password', [
        { ...field[0]!, message: 'too common' },
      ]);
  }

  async register(input: {
    email: string;
    password: string;
    display_name?: string | null;
    /** the language the reader signs up in: their notifications' language until they change it */
    locale?: Locale;
  }): Promise<Session> {
    if (this.options.registration === 'closed')
      throw forbidden(
        'sign-up is closed on this site; an administrator creates accounts',
        'registration_closed',
      );
    await this.checkPassword(input.password);
    const email = normalizeEmail(input.email);
    if (await this.users.findByEmail(email))
      throw conflict('an account with this e-mail exists', 'email_taken');
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.users
      .create({
        email,
        passwordHash,
        displayName: input.display_name?.trim() || null,
        role: 'user',
        locale: input.locale,
      })
      .catch((e: unknown) => {
        // two registrations racing for one e-mail: the unique index decides
        if (isUniqueViolation(e)) throw conflict('an account with this e-mail exists', 'email_taken');
        throw e;
      });
    this.log.info({ event: 'auth.registered', user_id: user.id });
    return this.session(user);
  }

  async login(input: { email: string; password: string }): Promise<Session> {
    const record = await this.users.findByEmail(normalizeEmail(input.email));
    // Verify against a dummy hash when the e-mail is unknown, so timing does not reveal existence.
    const ok = await this.hasher.verify(input.password, record?.passwordHash ?? (await this.dummyHash));
    if (!record || !ok) {
      this.log.info({ event: 'auth.login_failed' });
      throw unauthorized('invalid e-mail or password', 'invalid_credentials');
    }
    // said only to whoever knows the password: it tells them whom to ask
    if (record.disabledAt) {
      this.log.info({ event: 'auth.login_disabled', user_id: record.id });
      throw forbidden('this account is disabled; ask an administrator', 'account_disabled');
    }
    return this.session(record);
  }

  async me(principal: Principal): Promise<UserOut> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw unauthorized('the account no longer exists', 'invalid_token');
    return toUserOut(user);
  }

  /**
   * A token is good while its account exists and it carries the account's current token version
   * (sign-out bumps it). The role is the account's current one, so a demotion takes effect at once.
   */
  async authenticate(token: string): Promise<Principal | null> {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const state = await this.users.sessionState(claims.userId);
    if (!state || state.disabled || state.tokenVersion !== claims.tokenVersion) return null;
    return { userId: claims.userId, role: state.role };
  }

  /** Sign-out: every token of the account issued so far is refused from now on. */
  async logout(principal: Principal): Promise<void> {
    await this.users.bumpTokenVersion(principal.userId);
    this.log.info({ event: 'auth.signed_out', user_id: principal.userId });
  }

  /**
   * Settings: a new password for the signed-in user, who proves the current one. With
   * `signOutOthers` every other session ends (the token version moves on); the caller's session
   * goes on with the new token answered here. Open reset links stop working either way.
   */
  async changePassword(
    principal: Principal,
    input: { current_password: string; new_password: string; sign_out_others: boolean },
  ): Promise<Session> {
    const hash = await this.users.passwordHashOf(principal.userId);
    if (!hash) throw unauthorized('the account no longer exists', 'invalid_token');
    if (!(await this.hasher.verify(input.current_password, hash)))
      throw invalid('the current password is not right', 'wrong_password', [
        { path: '/body/current_password', message: 'not the current password' },
      ]);
    await this.checkPassword(input.new_password, '/body/new_password');
    await this.users.update(principal.userId, { passwordHash: await this.hasher.hash(input.new_password) });
    await this.resets.revokeAll(principal.userId, new Date());
    if (input.sign_out_others) await this.users.bumpTokenVersion(principal.userId);
    this.log.info({
      event: 'auth.password_changed',
      user_id: principal.userId,
      signed_out_others: input.sign_out_others,
    });
    return this.session(await this.existing(principal.userId));
  }

  /** Settings: every other session of the account ends; the caller's goes on with a new token. */
  async signOutOthers(principal: Principal): Promise<Session> {
    await this.users.bumpTokenVersion(principal.userId);
    this.log.info({ event: 'auth.signed_out_others', user_id: principal.userId });
    return this.session(await this.existing(principal.userId));
  }

  private async existing(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw unauthorized('the account no longer exists', 'invalid_token');
    return user;
  }

  /**
   * ADMIN_EMAIL/ADMIN_PASSWORD at start and `cli user:create --admin`: create or promote. The
   * password policy of sign-up applies (422 `weak_password`).
   */
  async ensureUser(input: { email: string; password: string; role: Role; displayName?: string }): Promise<{
    user: UserOut;
    created: boolean;
  }> {
    await this.checkPassword(input.password);
    const email = normalizeEmail(input.email);
    const existing = await this.users.findByEmail(email);
    if (existing) {
      const patch: { role?: Role; passwordHash?: string } = {};
      if (input.role === 'admin' && existing.role !== 'admin') patch.role = 'admin';
      if (!(await this.hasher.verify(input.password, existing.passwordHash)))
        patch.passwordHash = await this.hasher.hash(input.password);
      if (Object.keys(patch).length) await this.users.update(existing.id, patch);
      const user = await this.users.findById(existing.id);
      if (!user) throw notFound('user');
      return { user: toUserOut(user), created: false };
    }
    const user = await this.users
      .create({
        email,
        passwordHash: await this.hasher.hash(input.password),
        displayName: input.displayName ?? null,
        role: input.role,
      })
      // processes starting together (api replicas, workers) each ensure ADMIN_EMAIL: one creates
      // the user, the others find it on a second look
      .catch((e: unknown) => (isUniqueViolation(e) ? null : Promise.reject(e)));
    if (!user) return this.ensureUser(input);
    return { user: toUserOut(user), created: true };
  }

  /** A session (token) for an account: after a password reset, the new password signs in at once. */
  async session(user: User): Promise<Session> {
    const state = await this.users.sessionState(user.id);
    const { token, expiresIn } = await this.tokens.sign(
      { userId: user.id, role: user.role },
      state?.tokenVersion ?? 0,
    );
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user: toUserOut(user) };
  }
}

/** The unique index refused a row (PostgreSQL 23505), also when wrapped by the driver. */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return (err.code ?? err.cause?.code) === '23505';
}
