/**
 * Layer rules (docs/architecture.md, "Layers"), and what the benches may import. `npm run layers`
 * fails on any violation.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain imports nothing of ours outside domain',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { path: '^src/(?!domain)' },
    },
    {
      name: 'application-only-domain',
      comment: 'application imports only domain (and itself)',
      severity: 'error',
      from: { path: '^src/application' },
      to: { path: '^src/(?!domain|application)' },
    },
    {
      name: 'no-span-wrappers-in-application',
      comment: 'span wrappers are applied at wiring time, never called from application code',
      severity: 'error',
      from: { path: '^src/(application|domain|http)' },
      to: { path: '^src/infrastructure/tracing' },
    },
    {
      name: 'http-and-jobs-do-not-wire-infrastructure',
      comment: 'http and jobs call application; only the composition root wires infrastructure',
      severity: 'error',
      from: { path: '^src/(http|jobs)' },
      to: { path: '^src/infrastructure' },
    },
    {
      name: 'infrastructure-does-not-call-edges',
      severity: 'error',
      from: { path: '^src/infrastructure' },
      to: { path: '^src/(http|jobs|composition|main)' },
    },
    {
      name: 'bench-uses-one-entry',
      comment:
        'benches import the service only through src/composition/bench-entry.ts, and of test/ only the ' +
        'protocol peers (test/peers): never test helpers, repositories or any other module of src ' +
        '(docs/decisions/0113-bench-one-entry.md)',
      severity: 'error',
      from: { path: '^bench/' },
      to: {
        path: '^(src|test)/',
        pathNot: '^(src/composition/bench-entry\\.ts|test/peers/)',
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
