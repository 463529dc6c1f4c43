import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

async function violations(baseDir: string): Promise<string[] & { modules?: number }> {
  const cwd = process.cwd();
  process.chdir(baseDir);
  try {
    const result = await cruise(['src'], {
      validate: true,
      ruleSet: { forbidden: rules.forbidden },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '\\.test\\.ts$' },
      tsPreCompilationDeps: true,
      enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    });
    const out = result.output as ICruiseResult;
    return Object.assign(
      out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`),
      { modules: out.modules.length },
    );
  } finally {
    process.chdir(cwd);
  }
}

describe('span wrappers stay out of the application layer', () => {
  it('the rule catches an application module importing a span wrapper', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      mkdirSync(join(dir, 'src/application/pipeline'), { recursive: true });
      mkdirSync(join(dir, 'src/infrastructure/tracing'), { recursive: true });
      writeFileSync(
        join(dir, 'src/infrastructure/tracing/span-wrappers.ts'),
        'export const withSpan = (f: () => void) => f;\n',
      );
      writeFileSync(
        join(dir, 'src/application/pipeline/sneaky.service.ts'),
        "import { withSpan } from '../../infrastructure/tracing/span-wrappers.js';\nexport const run = withSpan(() => undefined);\n",
      );
      const found = await violations(dir);
      expect(found).toContain(
        'no-span-wrappers-in-application: src/application/pipeline/sneaky.service.ts -> src/infrastructure/tracing/span-wrappers.ts',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no module of src/application, src/domain or src/http imports src/infrastructure/tracing', async () => {
    const found = await violations(process.cwd());
    // the whole tree was read, the pipeline's application modules and the wrappers included
    expect(found.modules).toBeGreaterThan(50);
    expect(found.filter((v) => v.startsWith('no-span-wrappers-in-application'))).toEqual([]);
  });
});
