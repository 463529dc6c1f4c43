/**
 * `npm run cli -- <command> [options]`: one entry point with subcommands (docs/architecture.md).
 * Commands build the same container as the service and run one use case. Beside a service that
 * holds the embedded database, a command goes through that service, and the container (the
 * database, the pipeline and the rest, ~1 s of start-up) is not loaded at all.
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config } from '../config.js';
import type { Container } from '../composition/container.js';
import { embeddedDatabaseHolder, runningServiceApi } from '../composition/local-admin.js';
import type { ServiceApi } from './commands/command.js';
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
  let config: Config | undefined;
  // PGlite's DATA_DIR held by a running service: never a second open (issue 15); the command goes
  // through that service's admin API instead
  const besideService = (pid: number | undefined): Promise<number> | number => {
    const api = pid && config ? runningServiceApi(config.dataDir, pid) : null;
    if (api && command.viaService) return viaService(name, api, () => command.viaService!(api, values));
    console.error(
      `${name}: the service (pid ${pid}) holds the database in DATA_DIR and its admin API cannot be ` +
        `reached from here (is it still starting, or running without the api role?); ` +
        `${command.whileServiceRuns ?? 'stop the service first'}, or stop the service and run this again`,
    );
    return 2;
  };
  try {
    config = loadConfig();
    const holder = config.databaseUrl ? null : embeddedDatabaseHolder(config.dataDir);
    if (holder !== null) return await besideService(holder);
    const { createContainer } = await import('../composition/container.js');
    container = await createContainer(config, {
      logDestination: cliLogDestination(values.json === true),
    });
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 1;
    }
    // a service that took the directory after the look above
    if ((e as { code?: unknown }).code === 'data_dir_locked')
      return besideService((e as { pid?: number }).pid);
    throw e;
  }
  try {
    return await command.run(container, values);
  } finally {
    await container.close();
  }
}

/** A command through the running service: a service that cannot be reached is exit 1 with one line. */
async function viaService(name: string, api: ServiceApi, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    console.error(`${name}: the running service (pid ${api.pid}) did not answer: ${(err as Error).message}`);
    return 1;
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
