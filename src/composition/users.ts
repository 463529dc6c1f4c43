import { UserPreferencesService } from '../application/users/user-preferences.service.js';
import { DrizzleUserPreferencesRepository } from '../infrastructure/db/repositories/user-preferences.repository.js';
import type { WireArea } from './context.js';

/** The users' subscriptions and notification settings (/user/*). */
export const wireUsers: WireArea = (ctx) => ({
  services: {
    preferences: new UserPreferencesService(new DrizzleUserPreferencesRepository(ctx.db), {
      email: Boolean(ctx.config.mail.smtpUrl),
      telegram: Boolean(ctx.config.telegram.botToken),
    }),
  },
});
