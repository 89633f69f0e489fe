import fs from 'node:fs';
import path from 'node:path';
import { isExecutableFile } from '../../install/find-temporal-cli';
import { describeFailure, runCommand } from '../../run-command';
import { serverBinaryPaths, TEMPORAL_SERVER_VERSION, type ServerBinaryPaths } from '../cluster-paths';

/** The Go release that builds the pinned server; `go` downloads it from the module proxy when older. */
export const GO_TOOLCHAIN = 'go1.27.3';

const MODULE = 'go.temporal.io/server';
/** Go package → the name the binary gets in the cache (Temporal's release archives use these names). */
const BINARIES = [
  { pkg: `${MODULE}/cmd/server`, built: 'server', name: 'temporal-server' },
  { pkg: `${MODULE}/cmd/tools/sql`, built: 'sql', name: 'temporal-sql-tool' },
] as const;
/** In the module: the versioned PostgreSQL 12+ schemas `update-schema -d` takes. */
const SCHEMAS = [
  { from: 'schema/postgresql/v12/temporal/versioned', to: 'temporal' },
  { from: 'schema/postgresql/v12/visibility/versioned', to: 'visibility' },
] as const;

function isComplete(paths: ServerBinaryPaths): boolean {
  return (
    isExecutableFile(paths.server) &&
    isExecutableFile(paths.sqlTool) &&
    fs.existsSync(path.join(paths.temporalSchemaDir, 'v1.0')) &&
    fs.existsSync(path.join(paths.visibilitySchemaDir, 'v1.0'))
  );
}

/**
 * The Temporal server and its SQL schema tool at TEMPORAL_SERVER_VERSION, built once with `go
 * install` (a few minutes) into <projectRoot>/.thoughtline/temporal-server/<version>, with the
 * schemas copied beside them so the cache does not depend on Go's module cache staying put.
 * Built in a staging folder and renamed into place: the folder is either absent or complete.
 */
export async function findOrBuildTemporalServer(opts: {
  projectRoot: string;
  log: (line: string) => void;
}): Promise<ServerBinaryPaths> {
  const paths = serverBinaryPaths(opts.projectRoot);
  if (isComplete(paths)) return paths;
  const parent = path.dirname(paths.dir);
  fs.mkdirSync(parent, { recursive: true });
  const stage = fs.mkdtempSync(path.join(parent, `.install-${TEMPORAL_SERVER_VERSION}-`));
  const env = { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN, GOBIN: stage };
  try {
    opts.log(
      `building Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool with go (${GO_TOOLCHAIN}) into ${paths.dir}; ` +
        'the first build takes a few minutes',
    );
    const started = Date.now();
    const pkgs = BINARIES.map((b) => `${b.pkg}@v${TEMPORAL_SERVER_VERSION}`);
    const built = await runCommand('go', ['install', ...pkgs], env);
    if (built.exitCode !== 0) throw new Error(cannotBuild(describeFailure('go install', built), paths));
    for (const b of BINARIES) fs.renameSync(path.join(stage, b.built), path.join(stage, b.name));
    const version = await runCommand(path.join(stage, 'temporal-server'), ['--version']);
    if (!version.output.includes(`version ${TEMPORAL_SERVER_VERSION}`))
      throw new Error(cannotBuild(`the built server says '${version.output.trim()}'`, paths));

    const modCache = await runCommand('go', ['env', 'GOMODCACHE'], env);
    if (modCache.exitCode !== 0) throw new Error(cannotBuild(describeFailure('go env', modCache), paths));
    const moduleDir = path.join(modCache.output.trim(), `${MODULE}@v${TEMPORAL_SERVER_VERSION}`);
    for (const s of SCHEMAS) copyWritable(path.join(moduleDir, s.from), path.join(stage, 'schema', s.to));

    fs.rmSync(paths.dir, { recursive: true, force: true });
    fs.renameSync(stage, paths.dir);
    opts.log(`built Temporal server ${TEMPORAL_SERVER_VERSION} in ${Math.round((Date.now() - started) / 1000)} s`);
  } catch (err) {
    // Another process may have finished the same build meanwhile.
    if (isComplete(paths)) return paths;
    throw err;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  if (!isComplete(paths)) throw new Error(cannotBuild('the build left an incomplete folder', paths));
  return paths;
}

/** Go's module cache is read-only; copies are made writable so the cache folder can be deleted. */
function copyWritable(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyWritable(source, target);
    else {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, 0o644);
    }
  }
}

function cannotBuild(why: string, paths: ServerBinaryPaths): string {
  return [
    `could not build Temporal server ${TEMPORAL_SERVER_VERSION}: ${why}`,
    'Fix by hand, either:',
    `  - install Go 1.21 or later (it fetches ${GO_TOOLCHAIN} itself) and run this again`,
    `  - or put temporal-server and temporal-sql-tool ${TEMPORAL_SERVER_VERSION} in ${paths.dir},`,
    `    with the module's schema/postgresql/v12/{temporal,visibility}/versioned in ${path.dirname(paths.temporalSchemaDir)}/{temporal,visibility}`,
  ].join('\n');
}
