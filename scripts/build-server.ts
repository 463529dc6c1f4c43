/**
 * `npm run build:server` (and `npm start`'s prestart): bundles the service into dist/ with esbuild.
 *
 * dist/main.js is the entry (`node dist/main.js api|web|worker|all`); dist/parse-functions.js and
 * dist/lexical-embedder.js are the modules the worker-thread pools load; every other file is a
 * chunk they share or one loaded on first use (a dynamic import stays a separate chunk, so the
 * mail, MCP, telemetry and model-provider code is not read by an idle service). Every file is flat
 * in dist/, as the pools find their module beside the code that starts them.
 *
 * Why a bundle (docs/decisions/0158-bundled-server-build.md): one minified file per chunk instead of
 * ~1,700 modules keeps ~12 MB less resident in an idle `npm start` and halves its start-up (~3.3
 * CPU-s to ~2). Names are kept (no identifier minifying), so stack traces in the logs name the
 * functions; each file has a linked source map for `node --enable-source-maps` when debugging
 * (left off in production: the maps cost ~40 MB resident).
 *
 * Packages that read files beside their own code at run time (WASM, worker scripts, static assets,
 * their package.json, lazily required tables) stay external, loaded from node_modules as before.
 * The build fails when a bundled file still refers to `__dirname` or `__filename` without a
 * `typeof` guard: in an ES module they do not exist, so a new dependency of that kind must be
 * added to EXTERNAL instead of failing at run time.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist');
/** esbuild's metafile of the last build: which source files (and packages) each output holds */
const META_FILE = '.bundle-meta.json';

const EXTERNAL = [
  '@electric-sql/pglite', // its WASM and data files beside its modules
  'pino', // transports run in worker threads from files of their own
  '@resvg/resvg-js', // a native addon
  '@fastify/static', // reads files relative to itself and serves directories
  '@fastify/swagger', // reads its package.json through __dirname
  '@fastify/swagger-ui', // serves its static assets from its own folder
  'ioredis', // __dirname in its error stacks
  // OpenTelemetry's SDK (loaded when telemetry is configured) imports its machine-id detector with
  // import() of CommonJS files, and several exporters carry nested copies of its packages, which
  // resolve right only from node_modules; the API stays with them
  '@opentelemetry/*',
  // pg-boss (loaded from node_modules) computes its schedules with these: one copy of each in the
  // process, so that the defaults time-zone.ts gives luxon are the ones its scheduler reads
  'cron-parser',
  'luxon',
];

/**
 * A package the code imports with `import()` stays external. Most are loaded on first use (the
 * model SDK, mail, undici, OPML), so bundling them saves nothing at idle; the job queue (pg-boss)
 * and node-postgres, loaded at start on their databases, keep one copy of `pg` and its type parsers
 * between them; and esbuild's chunk for a CommonJS package imported that way exports only `default`
 * (its named exports are undefined where Node's own loader gives them).
 */
const packagesImportedOnFirstUseStayExternal: Plugin = {
  name: 'packages-imported-on-first-use-stay-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'dynamic-import' && !args.path.startsWith('node:')
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

const ENTRIES = {
  main: 'src/main.ts',
  'parse-functions': 'src/infrastructure/feeds/parse-functions.ts',
  'lexical-embedder': 'src/infrastructure/embedding/lexical-embedder.ts',
};

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(OUT, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    plugins: [packagesImportedOnFirstUseStayExternal],
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    // bundled CommonJS packages call require() for Node's modules; an ES module has none of its own
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });

  const outputs = new Set(Object.keys(result.metafile.outputs).map((f) => basename(f)));
  const problems: string[] = [];
  for (const file of outputs) {
    if (!file.endsWith('.js')) continue;
    const path = join(OUT, file);
    const source = readFileSync(path, 'utf8');
    for (const m of source.matchAll(/\b__(?:dirname|filename)\b/g)) {
      // `typeof __filename < "u" ? __filename : void 0` is guarded
      if (source.slice(Math.max(0, m.index - 40), m.index).includes(`typeof ${m[0]}`)) continue;
      if (/typeof\s*$/.test(source.slice(Math.max(0, m.index - 10), m.index))) continue;
      problems.push(`${file}: ${source.slice(Math.max(0, m.index - 80), m.index + 40)}`);
    }
    // the same esbuild limit inside a bundled package (a CommonJS file it imports with import())
    if (/export default require_\w+\(\);?\s*(\/\/# sourceMappingURL=\S+\s*)?$/.test(source))
      problems.push(`${file}: a CommonJS module imported with import() exports only its default`);
    const ascii = asciiOnly(source);
    if (ascii !== source) writeFileSync(path, ascii);
  }
  if (problems.length > 0) {
    console.error(
      'build:server: bundled code that would fail at run time (__dirname or __filename, which an ES ' +
        'module does not have, or a CommonJS chunk without its named exports); add its package to ' +
        'EXTERNAL in scripts/build-server.ts:\n' +
        problems.join('\n'),
    );
    process.exit(1);
  }

  writeFileSync(join(OUT, META_FILE), JSON.stringify(result.metafile));
  // the previous build's files (and the layout of the transpiled build before bundling)
  for (const name of readdirSync(OUT)) {
    if (name.startsWith('.') || outputs.has(name)) continue;
    rmSync(join(OUT, name), { recursive: true, force: true });
  }
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([f]) => f.endsWith('.js'))
    .reduce((sum, [, o]) => sum + o.bytes, 0);
  if (!process.argv.includes('--quiet'))
    process.stdout.write(
      `build:server: ${relative(ROOT, OUT)}/ ${outputs.size} files, ${(bytes / 1e6).toFixed(1)} MB of JavaScript, ${Date.now() - started} ms\n`,
    );
}

/**
 * Escapes every character outside ASCII as `\uXXXX`. V8 keeps a script's source in memory, as one
 * byte per character only when every character is Latin-1: a single "。" in a regular expression
 * (which esbuild leaves as it is) doubles the 1.7 MB of dist/main.js. The escape means the same in
 * string, template and regular-expression literals and in comments.
 */
function asciiOnly(source: string): string {
  return source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

await main();
