import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface InstalledPackage {
  /** A project folder whose node_modules/thoughtline is the package as npm would install it. */
  dir: string;
  packageDir: string;
  packageJson: { exports: Record<string, string | { types: string; default: string }>; bin: Record<string, string> };
  remove(): void;
}

/**
 * Builds the package (tsconfig.build.json, into a fresh dist/) and installs it as a user's
 * project would hold it: package.json plus its `files`. The folder sits under the checkout's
 * .thoughtline/tmp, so the package's own dependencies resolve from the checkout's node_modules.
 */
export function installBuiltPackage(): InstalledPackage {
  const dir = fs.mkdtempSync(path.join(ROOT, '.thoughtline/tmp/installed-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'my-agent', private: true }));
  const packageDir = path.join(dir, 'node_modules/thoughtline');
  fs.mkdirSync(packageDir, { recursive: true });
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(packageDir, 'dist')],
    { stdio: 'pipe' },
  );
  const packageJson = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
  ) as InstalledPackage['packageJson'] & { files: string[] };
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(packageDir, 'package.json'));
  for (const f of packageJson.files)
    if (f !== 'dist') fs.cpSync(path.join(ROOT, f), path.join(packageDir, f), { recursive: true });
  return { dir, packageDir, packageJson, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
