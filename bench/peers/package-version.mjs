import { readFileSync } from 'node:fs';

/** The installed version of a dependency of this package (read from disk, so it is what ran). */
export function packageVersion(name) {
  const url = new URL(`./node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')).version;
}
