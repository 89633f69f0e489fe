import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../..');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-build-if-stale-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A project with the script and the four outputs it checks, compiled by the repo's TypeScript. */
function project(): void {
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const script of ['build-if-stale.cjs', 'prune-dist.cjs', 'vendor-sql-grammars.cjs'])
    fs.copyFileSync(path.join(REPO, 'scripts', script), path.join(root, 'scripts', script));
  // The preload list's generator bundles the real workflows (its own test covers it); here a stand-in
  // that counts its runs, which must follow the compiles.
  fs.writeFileSync(
    path.join(root, 'scripts/generate-preload-list.cjs'),
    "require('fs').appendFileSync(require('path').join(__dirname, '../generated.log'), 'ran\\n');\n",
  );
  fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(root, 'node_modules'), 'dir');
  fs.mkdirSync(path.join(root, 'src/cli'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/index.ts'), 'export const version = 1;\n');
  fs.writeFileSync(path.join(root, 'src/worker.ts'), 'export const worker = true;\n');
  fs.writeFileSync(path.join(root, 'src/cli/main.ts'), 'export const cli = true;\n');
  fs.writeFileSync(path.join(root, 'src/cli/bin.ts'), 'export const bin = true;\n');
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "stale-check", "private": true }\n');
  const options = { outDir: 'dist', rootDir: 'src', module: 'commonjs', target: 'es2022', types: [] };
  fs.writeFileSync(
    path.join(root, 'tsconfig.build.json'),
    JSON.stringify({ compilerOptions: options, include: ['src'] }),
  );
}

const build = () => spawnSync(process.execPath, ['scripts/build-if-stale.cjs'], { cwd: root, encoding: 'utf8' });
const output = (rel: string) => path.join(root, 'dist', rel);
const generatorRuns = () =>
  fs.existsSync(path.join(root, 'generated.log'))
    ? fs.readFileSync(path.join(root, 'generated.log'), 'utf8').length / 4
    : 0;

describe('npm run demo builds only when a source changed (scripts/build-if-stale.cjs)', () => {
  it('compiles once, skips while nothing changed, and compiles again after an edit or a lost output', () => {
    project();
    expect(build().status).toBe(0);
    expect(fs.readFileSync(output('index.js'), 'utf8')).toContain('version = 1');
    expect(generatorRuns()).toBe(1);

    // Nothing changed: no compile, so an output we mark stays exactly as we left it.
    fs.appendFileSync(output('index.js'), '// untouched by a skipped build\n');
    expect(build().status).toBe(0);
    expect(fs.readFileSync(output('index.js'), 'utf8')).toContain('untouched by a skipped build');
    expect(generatorRuns()).toBe(1);

    // A source edit (a different size) is a rebuild.
    fs.writeFileSync(path.join(root, 'src/index.ts'), 'export const version = 22;\n');
    expect(build().status).toBe(0);
    expect(fs.readFileSync(output('index.js'), 'utf8')).toContain('version = 22');

    // A deleted output is a rebuild too, even though the sources did not change.
    fs.rmSync(output('worker.js'));
    expect(build().status).toBe(0);
    expect(fs.existsSync(output('worker.js'))).toBe(true);
    expect(generatorRuns()).toBe(3);

    // A source moved away takes its stale output with it: Node would still resolve the old path.
    fs.renameSync(path.join(root, 'src/worker.ts'), path.join(root, 'src/cli/worker.ts'));
    expect(build().status).toBe(0);
    expect(fs.existsSync(output('cli/worker.js'))).toBe(true);
    expect(fs.existsSync(output('worker.js'))).toBe(false);
  }, 120_000);
});
