/**
 * A fresh clone's `npm install` must leave package-lock.json as committed (issue 80): npm rewrites
 * the lock's root entry from package.json whenever the two disagree (a range edited by hand, a
 * dependency moved to the peers, a new `bin` or `engines`). Regenerate with
 * `npm install --package-lock-only --ignore-scripts`. Pure: reads the two files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

/** The fields of package.json npm copies into the lock's root entry (`packages['']`). */
const ROOT_FIELDS = [
  'name',
  'version',
  'license',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'engines',
  'bin',
] as const;

/** The fields where the lock's root entry (and its name and version) differ from package.json. */
function rootDisagreements(pkg: Record<string, unknown>, lock: Record<string, unknown>): string[] {
  const root = ((lock['packages'] as Record<string, Record<string, unknown>> | undefined) ?? {})[''] ?? {};
  const problems: string[] = [];
  if (lock['name'] !== pkg['name'] || lock['version'] !== pkg['version']) problems.push('name or version');
  for (const field of ROOT_FIELDS) {
    if (JSON.stringify(root[field]) !== JSON.stringify(pkg[field])) problems.push(field);
  }
  return problems;
}

describe('package-lock.json', () => {
  it("records package.json's dependencies, peers, engines and bin as they are", () => {
    expect(rootDisagreements(read('package.json'), read('package-lock.json'))).toEqual([]);
  });

  it('is caught disagreeing: a range edited in package.json alone (control)', () => {
    const pkg = read('package.json');
    const edited = { ...pkg, dependencies: { ...(pkg['dependencies'] as object), zod: '^4.99.0' } };
    expect(rootDisagreements(edited, read('package-lock.json'))).toEqual(['dependencies']);
  });
});
