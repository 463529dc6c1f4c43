import { AccountsService } from '../application/auth/accounts.service.js';
import { UserPreferencesService } from '../application/users/user-preferences.service.js';
import { DrizzleUserPreferencesRepository } from '../infrastructure/db/repositories/user-preferences.repository.js';
import { DrizzleUserRepository } from '../infrastructure/db/repositories/user.repository.js';
import { DrizzlePasswordResetRepository } from '../infrastructure/db/repositories/password-reset.repository.js';
import { SmtpMailer } from '../infrastructure/mail/smtp-mailer.js';
import type { AuthService } from '../application/auth/auth.service.js';
import type { AreaWiring, WiringContext } from './context.js';

/** The users' subscriptions and notification settings (/user/*) and account management (/admin/users). */
export const wireUsers = (
  ctx: WiringContext,
  { auth }: { auth: AuthService },
): AreaWiring<'preferences' | 'accounts'> => ({
  services: {
    preferences: new UserPreferencesService(new DrizzleUserPreferencesRepository(ctx.db), {
      email: Boolean(ctx.config.mail.smtpUrl),
      telegram: Boolean(ctx.config.telegram.botToken),
    }),
    accounts: new AccountsService(
      new DrizzleUserRepository(ctx.db),
      new DrizzlePasswordResetRepository(ctx.db),
      ctx.hasher,
      auth,
      new SmtpMailer({ smtpUrl: ctx.config.mail.smtpUrl, from: ctx.config.mail.from }),
      ctx.logger,
      ctx.clock,
      { publicBaseUrl: ctx.config.publicBaseUrl },
    ),
  },
});
