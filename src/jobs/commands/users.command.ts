import { AppError } from '../../domain/errors.js';
import type { Command } from './command.js';
import { answerError } from './service-run.js';

export const userCommands: Record<string, Command> = {
  'user:create': {
    whileServiceRuns: 'an admin adds users on the Users page (/admin/users)',
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
    async viaService(api, v) {
      if (typeof v.email !== 'string' || typeof v.password !== 'string') {
        console.error('user:create needs --email and --password');
        return 2;
      }
      const answer = await api.call<{ user: { id: string; email: string; role: string }; created: boolean }>(
        'POST',
        '/admin/users',
        {
          email: v.email,
          password: v.password,
          role: v.admin ? 'admin' : 'user',
          ...(typeof v.name === 'string' ? { display_name: v.name } : {}),
          update_existing: true,
        },
      );
      if (!answer.ok) {
        return answerError('user:create', answer);
      }
      const { user, created } = answer.body;
      console.log(
        `${created ? 'created' : 'updated'} ${user.role} ${user.email} (${user.id}) in the running service (pid ${api.pid})`,
      );
      return 0;
    },
  },
};
