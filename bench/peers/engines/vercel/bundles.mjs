// Where the built bundles are: built once per source version under the request's workDir and
// reused by later scenarios of the same runner session (the build is deterministic, and no run
// state lives there). Built in a child process so the build's cwd is the output folder.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, versionOf } from '../lib/engine-io.mjs';
import { SOURCES } from './builder.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeModules = path.join(here, '..', '..', 'node_modules');
const libDir = path.join(here, '..', 'lib');

/** A hash of everything that goes into the bundles. */
function sourceHash() {
  const hash = createHash('sha256');
  const files = [
    ...SOURCES,
    ...fs.readdirSync(libDir).map((f) => path.join(libDir, f)),
    path.join(here, 'builder.mjs'),
  ];
  for (const file of files) hash.update(fs.readFileSync(file));
  hash.update(versionOf('workflow'));
  return hash.digest('hex').slice(0, 12);
}

/** Why the build may fail here: the SDK's SWC plugin runs only on the @swc/core it was built for. */
function swcHint() {
  const require = createRequire(path.join(nodeModules, '@workflow', 'builders', 'package.json'));
  const have = require('@swc/core/package.json').version;
  const want = require('@workflow/swc-plugin/package.json').peerDependencies?.['@swc/core'];
  return want && have !== want
    ? `; @workflow/swc-plugin needs @swc/core ${want} (its peer dependency) but @workflow/builders resolves @swc/core ${have}` +
        ' (bench/peers/package.json overrides @swc/core), and that SWC cannot run the plugin ("failed to deserialize program")'
    : '';
}

/**
 * @returns {{ dir: string, routes: string, workflowId: string }} dir is the app root the
 *   builder wrote into, routes its `.well-known/workflow/v1` folder.
 */
export function ensureBundles(workDir) {
  const dir = path.join(workDir, `vercel-workflow-build-${sourceHash()}`);
  const routes = path.join(dir, '.well-known', 'workflow', 'v1');
  if (!fs.existsSync(path.join(routes, 'manifest.json'))) {
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    // The bundles import `workflow/*` from the app root, as in a real app.
    fs.symlinkSync(nodeModules, path.join(tmp, 'node_modules'), 'dir');
    const started = Date.now();
    const built = spawnSync(process.execPath, [path.join(here, 'builder.mjs')], {
      cwd: tmp,
      stdio: ['ignore', 2, 2], // stdout carries only the engine's reply
      env: process.env,
    });
    if (built.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new Error(`workflow build failed (exit ${built.status ?? built.signal})${swcHint()}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
    log(`vercel-workflow: built bundles in ${Date.now() - started} ms at ${dir}`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(routes, 'manifest.json'), 'utf8'));
  const workflowId = Object.values(manifest.workflows)
    .flatMap((entries) => Object.entries(entries))
    .find(([name]) => name === 'agentLoop')?.[1].workflowId;
  if (!workflowId) throw new Error(`agentLoop not in the build manifest at ${routes}`);
  return { dir, routes, workflowId };
}
