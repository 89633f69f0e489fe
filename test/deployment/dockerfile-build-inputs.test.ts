/**
 * The Dockerfile's build stage runs `npm run build` on what it copied: every script the build line
 * runs must be copied before it; its runtime stage needs what a default install leaves out (Docker
 * does not run on the CI machine, so nothing else would notice).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The files under scripts/ that a shell command line runs with node. */
const scriptsRun = (line: string): string[] => [...line.matchAll(/node (scripts\/[\w.-]+)/g)].map((m) => m[1]!);

/** The files the Dockerfile's build stage copies before `RUN npm run build`. */
function copiedBeforeBuild(dockerfile: string): string[] {
  const stage = dockerfile.slice(0, dockerfile.indexOf('RUN npm run build'));
  return [...stage.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
}

describe('the Dockerfile builds with the scripts the build runs', () => {
  it('copies every script of the build line before running it', () => {
    const build = (JSON.parse(read('package.json')) as { scripts: { build: string } }).scripts.build;
    const needed = scriptsRun(build);
    expect(needed.length).toBeGreaterThan(0);
    expect(copiedBeforeBuild(read('Dockerfile'))).toEqual(expect.arrayContaining(needed));
  });

  it("the image carries what a default install leaves out: the SQL grammars and the production topology's optional peers", () => {
    const dockerfile = read('Dockerfile');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toMatch(/^COPY --from=build \/app\/vendor \.\/vendor$/m);
    // Every optional peer of OPTIONAL_PEERS, read from dist after dist is copied in.
    const copiedDist = runtime.indexOf('COPY --from=build /app/dist');
    const installed = runtime.indexOf("require('./dist/packaging/optional-peers.js').OPTIONAL_PEERS");
    expect(copiedDist).toBeGreaterThan(-1);
    expect(installed).toBeGreaterThan(copiedDist);
    expect(runtime.slice(runtime.lastIndexOf('RUN npm install', installed), installed)).toContain('--omit=dev');
  });

  it('would notice a script missing from the copies', () => {
    const without = read('Dockerfile').replace(/^COPY scripts\/.*$/m, '');
    const needed = scriptsRun('node scripts/generate-preload-list.cjs && tsc && node scripts/prune-dist.cjs');
    expect(copiedBeforeBuild(without)).not.toEqual(expect.arrayContaining(needed));
  });
});
