import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-progress-reporter-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the suite's reporter", () => {
  it("puts the run's count on each file's line and lists the failed files at the end", () => {
    fs.writeFileSync(
      path.join(dir, 'a.test.ts'),
      "import { it } from 'vitest';\nit('one', () => {});\nit('two', () => {});\n",
    );
    fs.writeFileSync(
      path.join(dir, 'b.test.ts'),
      "import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n",
    );
    const reporter = path.join(REPO, 'test/reporting/suite-progress-reporter.mts');
    fs.writeFileSync(
      path.join(dir, 'vitest.config.mts'),
      `import { SuiteProgressReporter } from ${JSON.stringify(reporter)};\n` +
        `export default { test: { include: ['*.test.ts'], maxWorkers: 1, reporters: [new SuiteProgressReporter()] } };\n`,
    );
    const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', dir, '--sequence.shuffle=false'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
    });
    const out = run.stdout + run.stderr;
    expect(run.status).toBe(1);
    expect(out).toMatch(/\[1\/2 files · (1 test · 1 failed\] ❯ b|2 tests\] ✓ a)\.test\.ts/);
    expect(out).toMatch(/\[2\/2 files · 3 tests · 1 failed\] [✓❯] [ab]\.test\.ts/);
    // Vitest's own account of the failure is still there.
    expect(out).toContain('expected 1 to be 2');
    expect(out).toContain('Failed files (1): b.test.ts');
  });
});
