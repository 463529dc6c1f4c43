import { AppError } from '../../domain/errors.js';
import type { Command } from './command.js';

export const userCommands: Record<string, Command> = {
  'user:create': {
    whileServiceRuns:
      'ADMIN_EMAIL and ADMIN_PASSWORD create an admin when the service starts; users sign up at /register',
    summary: 'Create a user (or promote and reset the password of an existing one)',
    usage: 'user:create --email EMAIL --password PASSWORD [--admin] [--name NAME]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean', default: false },
    },
    async run(c, v) {
      if (typeof v.email !== 'string' || typeof v.password !== 'string') {
        console.error('user:create needs --email and --password');
        return 2;
      }
      let result: Awaited<ReturnType<typeof c.services.auth.ensureUser>>;
      try {
        result = await c.services.auth.ensureUser({
          email: v.email,
          password: v.password,
          role: v.admin ? 'admin' : 'user',
          displayName: typeof v.name === 'string' ? v.name : undefined,
        });
      } catch (err) {
        // the password policy of sign-up: at least 10 characters, not only spaces, not a common one
        if (err instanceof AppError && err.code === 'weak_password') {
          console.error(`user:create: --password refused: ${err.message}`);
          return 2;
        }
        throw err;
      }
      const { user, created } = result;
      console.log(`${created ? 'created' : 'updated'} ${user.role} ${user.email} (${user.id})`);
      return 0;
    },
  },
};
