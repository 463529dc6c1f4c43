/**
 * `npm run cli -- <command> [options]`: one entry point with subcommands (DESIGN.md §2).
 * Commands build the same container as the service and run one use case.
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config.js';
import { createContainer, type Container } from '../composition/container.js';
import { commands } from './commands/index.js';
import { cliLogDestination } from './terminal.js';

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
    container = await createContainer(loadConfig(), {
      logDestination: cliLogDestination(values.json === true),
    });
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 1;
    }
    // PGlite's DATA_DIR is held by a running service: never a second open (issue 15)
    if ((e as { code?: unknown }).code === 'data_dir_locked') {
      const { pid } = e as { pid?: number };
      console.error(
        `${name}: the service (pid ${pid}) holds the database in DATA_DIR; ` +
          `${command.whileServiceRuns ?? 'stop the service first'}, or stop the service and run this again`,
      );
      return 2;
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
