/**
 * `npm run cli -- <command> [options]`: one entry point with subcommands (DESIGN.md §2).
 * Commands build the same container as the service and run one use case.
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config.js';
import { createContainer, type Container } from '../composition/container.js';

export interface Command {
  summary: string;
  usage: string;
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  /** returns the process exit code */
  run(container: Container, values: Record<string, string | boolean | undefined>): Promise<number>;
}

const commands: Record<string, Command> = {
  'user:create': {
    summary: 'Create a user (or promote and reset the password of an existing one)',
    usage: 'user:create --email EMAIL --password PASSWORD [--admin] [--name NAME]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean', default: false },
    },
    async run(c, v) {
      if (typeof v.email !== 'string' || typeof v.password !== 'string' || v.password.length < 8) {
        console.error('user:create needs --email and --password (at least 8 characters)');
        return 2;
      }
      const { user, created } = await c.services.auth.ensureUser({
        email: v.email,
        password: v.password,
        role: v.admin ? 'admin' : 'user',
        displayName: typeof v.name === 'string' ? v.name : undefined,
      });
      console.log(`${created ? 'created' : 'updated'} ${user.role} ${user.email} (${user.id})`);
      return 0;
    },
  },
};

export function registerCommand(name: string, command: Command): void {
  commands[name] = command;
}

function help(): string {
  const lines = Object.entries(commands).map(
    ([name, c]) => `  ${name.padEnd(18)} ${c.summary}\n      ${c.usage}`,
  );
  return `usage: npm run cli -- <command> [options]\n\ncommands:\n${lines.join('\n')}`;
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    console.log(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false })
      .values as Record<string, string | boolean | undefined>;
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: npm run cli -- ${command.usage}`);
    return 2;
  }
  let container: Container;
  try {
    container = await createContainer(loadConfig(), {});
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
  try {
    return await command.run(container, values);
  } finally {
    await container.close();
  }
}

const isEntry =
  process.argv[1]?.replace(/\\/g, '/').endsWith('jobs/cli.ts') || process.argv[1]?.endsWith('jobs/cli.js');
if (isEntry) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
