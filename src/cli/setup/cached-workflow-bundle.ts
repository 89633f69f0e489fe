import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { bundlerOptionsWith, WORKFLOWS_PATH } from '../../worker';
import { quietBundlerLogger } from '../../quiet-bundler';
import { telemetryBundleOptions } from '../../telemetry';

/** Bundles kept in the cache folder: the current one and a few older ones that running workers may still be reading. */
const KEEP = 3;
const PREFIX = 'workflow-bundle-';

export interface CachedBundleOptions {
  /** Folder of the cached bundles, e.g. <project>/.thoughtline/workflow-bundles. */
  cacheDir: string;
  /** Set when payloads are encrypted: the bundle must contain the failure converter. */
  failureConverterPath?: string;
  /** Told a line before and after a build (several seconds of webpack), never when the cache serves. */
  log?: (line: string) => void;
  /** False: the bundle preloads NO_STACK_TRACES_MODULE (THOUGHTLINE_WORKFLOW_STACK_TRACES=off); default true. */
  workflowStackTraces?: boolean;
  /** Whose OTEL_* variables add OpenTelemetry's workflow interceptors; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Every file of the compiled tree the workflows come from, in a stable order. */
function codeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) codeFiles(file, out);
    else if (/\.(js|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(file);
  }
  return out;
}

/** npm's record of the installed dependency tree, nearest above `dir`; changes with any install. */
function installedTree(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    const lock = path.join(at, 'node_modules', '.package-lock.json');
    if (fs.existsSync(lock)) return fs.readFileSync(lock, 'utf8');
    if (path.dirname(at) === at) return 'no node_modules/.package-lock.json';
  }
}

/**
 * What the bundle is made of: the code under the workflows' tree (dist/ or src/), the installed
 * dependencies (zod, @temporalio/workflow ... are bundled too), the failure converter, and the
 * workflow interceptors (OpenTelemetry's, when OTEL_* variables turn it on).
 */
function bundleKey(failureConverterPath: string | undefined, interceptors: readonly string[]): string {
  const root = path.dirname(WORKFLOWS_PATH);
  const hash = crypto.createHash('sha256');
  for (const file of codeFiles(root))
    hash
      .update(`${path.relative(root, file)}\0`)
      .update(fs.readFileSync(file))
      .update('\0');
  hash.update(installedTree(root)).update(`\0${failureConverterPath ?? ''}\0${interceptors.join('\0')}`);
  return hash.digest('hex').slice(0, 24);
}

/**
 * What the CLI's worker says its code is (in its identity, cli/worker-identity.ts): the key its
 * bundle is cached under, so two checkouts of the same code and dependencies share it.
 */
export const workflowBuildId = (failureConverterPath?: string): string =>
  bundleKey(failureConverterPath, telemetryBundleOptions().workflowInterceptorModules ?? []);

/**
 * The workflow bundle for a Worker (`workflowBundle` option): taken from `cacheDir` when one was
 * built from the same code and dependencies, else built (webpack, several seconds) and stored.
 * Written to a temporary name and renamed, so concurrent callers never read half a file.
 */
export async function cachedWorkflowBundle(options: CachedBundleOptions): Promise<{ codePath: string }> {
  const telemetry = telemetryBundleOptions(options.env);
  const stackTraces = options.workflowStackTraces !== false;
  // The same code either way (the same build id), in a file of its own.
  const codePath = path.join(
    options.cacheDir,
    `${PREFIX}${bundleKey(options.failureConverterPath, telemetry.workflowInterceptorModules ?? [])}${stackTraces ? '' : '-no-stack-traces'}.js`,
  );
  if (fs.existsSync(codePath)) {
    // Marks it recently used, so that pruning keeps it.
    const now = new Date();
    fs.utimesSync(codePath, now, now);
    return { codePath };
  }
  // Otherwise a first worker seems to hang for the ~20 s webpack takes.
  options.log?.('bundling the workflow code (once per code change; about 20 s)…');
  const started = Date.now();
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...bundlerOptionsWith({ ...telemetry, workflowStackTraces: stackTraces }),
    ...(options.failureConverterPath ? { failureConverterPath: options.failureConverterPath } : {}),
    logger: quietBundlerLogger(),
  });
  fs.mkdirSync(options.cacheDir, { recursive: true });
  const temporary = `${codePath}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, code);
  fs.renameSync(temporary, codePath);
  pruneOlderBundles(options.cacheDir);
  options.log?.(
    `workflow code bundled in ${((Date.now() - started) / 1000).toFixed(1)} s; reused until the code changes`,
  );
  return { codePath };
}

function pruneOlderBundles(dir: string): void {
  const bundles = fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith('.js'))
    .map((name) => ({ file: path.join(dir, name), mtime: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of bundles.slice(KEEP)) fs.rmSync(file, { force: true });
}
