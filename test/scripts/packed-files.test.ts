import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli-process';

/**
 * What `npm pack` puts in the package: compiled code without source maps. A map names src/*.ts,
 * which is not shipped, so a user's stack traces (tsx and --enable-source-maps apply maps) pointed
 * at files they do not have; without maps they point at dist/*.js, which they do.
 */
describe('the packed package', () => {
  it('ships no source map and no reference to one', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PROJECT_ROOT, encoding: 'utf8' }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/'))).toEqual([]);
    for (const file of ['dist/index.js', 'dist/activities/tool-activities.js', 'dist/cli/main.js'])
      expect(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')).not.toContain('sourceMappingURL');
  });
});
