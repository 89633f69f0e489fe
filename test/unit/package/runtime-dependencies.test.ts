/**
 * A user's `npm install thoughtline` brings `dependencies` (and optional and peer ones), never
 * `devDependencies`: a shipped module that loads a dev dependency works in this checkout and fails
 * with "Cannot find module" in every user's project (issue 62: `yaml`). This reads what every file
 * of src loads at run time and fails on any package the package does not declare. Which are
 * dependencies (an allow-list) and which optional peers, loaded lazily with an install hint, is
 * optional-peers.test.ts's rule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeSpecifiers, undeclaredRuntimeImports } from './runtime-imports';

const ROOT = path.resolve(__dirname, '../../..');
const temporaryDirs: string[] = [];
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A package folder: its package.json and src files, in a temporary directory. */
function plantPackage(packageJson: object, files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-deps-'));
  temporaryDirs.push(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', name), text);
  }
  return dir;
}

describe('runtime dependencies', () => {
  it('every package src loads at run time is a dependency, an optional or a peer dependency, or built in', () => {
    expect(undeclaredRuntimeImports(ROOT)).toEqual([]);
  });

  it('reads static, dynamic and require imports, and only those that survive compilation', () => {
    const source = [
      "import type { Document } from 'types-only';",
      "import { usedAsTypeOnly } from 'erased';",
      "import { parse } from 'yaml';",
      "export { x } from './sibling';",
      "const lazy = () => import('lazy-package/sub');",
      "const where = () => require.resolve('@scope/resolved/deep');",
      "const loaded = require('required');",
      "signatures.require('approval', raw); // not a module: require('commented')",
      'let d: Document | usedAsTypeOnly; export const all = [parse, lazy, where, loaded, d];',
    ].join('\n');
    expect(runtimeSpecifiers(source).sort()).toEqual(
      ['./sibling', '@scope/resolved/deep', 'lazy-package/sub', 'required', 'yaml'].sort(),
    );
  });

  it('catches a planted import of a dev dependency (control), and lets declared and built-in ones be', () => {
    const dir = plantPackage(
      {
        name: 'planted',
        dependencies: { zod: '^4' },
        optionalDependencies: { 'native-addon': '^12' },
        peerDependencies: { 'node-llama-cpp': '3' },
        devDependencies: { yaml: '^2', '@temporalio/testing': '1' },
      },
      {
        'index.ts': [
          "import fs from 'node:fs';",
          "import { z } from 'zod';",
          "import { self } from 'planted/sub';",
          "import { parse } from 'yaml';",
          'export const all = [fs, z, self, parse];',
        ].join('\n'),
        'deep/lazy.ts': [
          "import path from 'path';",
          "export const db = () => require.resolve('native-addon');",
          "export const llama = () => import('node-llama-cpp');",
          "export const testing = () => import('@temporalio/testing');",
          'export const p = path;',
        ].join('\n'),
      },
    );
    expect(undeclaredRuntimeImports(dir)).toEqual([
      {
        file: path.join('src', 'deep', 'lazy.ts'),
        specifier: '@temporalio/testing',
        packageName: '@temporalio/testing',
      },
      { file: path.join('src', 'index.ts'), specifier: 'yaml', packageName: 'yaml' },
    ]);
  });
});
