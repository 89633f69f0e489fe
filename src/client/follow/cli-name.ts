import path from 'node:path';

/**
 * Whether `packageRoot` is a global npm install: `<prefix>/lib/node_modules/<name>` (Unix) or
 * `%AppData%/npm/node_modules/<name>` (Windows). A project's dependency, a checkout or npx's cache is not.
 */
export function isGlobalInstall(packageRoot: string): boolean {
  const parent = path.dirname(packageRoot);
  if (path.basename(parent) !== 'node_modules') return false;
  return ['lib', 'npm'].includes(path.basename(path.dirname(parent)));
}

/**
 * How a person runs this CLI again, in the hints it prints: `thoughtline` where a global install
 * put it on the PATH, else `npx thoughtline`, which works in a project that depends on it, in a
 * checkout and through npx's cache (a bare `thoughtline` there is "command not found").
 */
export const cliName = (): string =>
  isGlobalInstall(path.resolve(__dirname, '../../..')) ? 'thoughtline' : 'npx thoughtline';
