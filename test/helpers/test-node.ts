import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** The npm package that carries this platform's Node binary (what the registry's `node` package installs). */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/**
 * Node `version` from the npm registry, installed once under .thoughtline/test-node (not
 * .thoughtline/node: the bin must not take it as its own); the path of its binary.
 */
export function installTestNode(version: string): string {
  const prefix = path.join(ROOT, '.thoughtline/test-node', version);
  const node = path.join(prefix, 'node_modules', NODE_PACKAGE, 'bin/node');
  if (fs.existsSync(node)) return node;
  fs.mkdirSync(prefix, { recursive: true });
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${NODE_PACKAGE}@${version}`,
    ],
    { stdio: 'pipe', timeout: 240_000 },
  );
  return node;
}
