import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { refuse } from '../refuse';
import { codeChildCommand } from './code-child-command';
import type { CodeLimits } from './code-limits';
import type { SandboxSwitches } from './sandbox-layers';

export type CodeLanguage = 'javascript' | 'python';

export interface CodeJob {
  language: CodeLanguage;
  code: string;
  files: Array<{ path: string; data: Uint8Array }>;
  globals: Record<string, string>;
  limits: CodeLimits;
  /** The top folder the code may not write (the state folder, when it is inside the root). */
  reserved: string;
  /** Whether the JavaScript program gets `fetch` (answered by `CodeFetch`). */
  fetch: boolean;
}

/** Sends one request the program made through the HTTP tool; its result or refusal goes back to the program. */
export type CodeFetch = (request: unknown) => Promise<unknown>;

const FetchRequest = z.object({ kind: z.literal('fetch'), id: z.number().int().positive(), request: z.unknown() });

const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array);
const ChildAnswer = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('done'),
    stdout: z.string(),
    stderr: z.string(),
    value: z.string().optional(),
    error: z.string().optional(),
    files: z.array(z.object({ path: z.string(), data: Bytes })),
    refused: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
    globals: z.record(z.string(), z.string()),
    dropped: z.array(z.string()),
  }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
]);
export type CodeAnswer = Extract<z.infer<typeof ChildAnswer>, { kind: 'done' }>;

/** Time a runtime may take to load before the code starts (Pyodide needs 1–3 s; more on a busy machine). */
const LOAD_TIMEOUT_MS = 60_000;
/** After the CPU limit, how long QuickJS has to stop itself and answer before its process is killed. */
const STOP_GRACE_MS = 1_000;
const WATCH_MS = 50;
/** Room past the limit before the watchdog acts: V8 compiles the runtime's wasm in the background as it runs (tens of MiB). */
const RESIDENT_SLACK = 32 * 1024 * 1024;
const PAGE_BYTES = 4096;

interface RuntimeModules {
  quickjsCore: string;
  quickjsVariant: string;
  /** A dependency of quickjs-emscripten-core, loaded by it: the child must be allowed to read it too. */
  quickjsTypes: string;
  pyodide?: string;
}

/** Where the runtimes' packages are: the child may read those folders and nothing else. */
function runtimeModules(language: CodeLanguage): RuntimeModules {
  const quickjsCore = require.resolve('quickjs-emscripten-core');
  const modules: RuntimeModules = {
    quickjsCore,
    quickjsVariant: require.resolve('@jitl/quickjs-wasmfile-release-sync'),
    quickjsTypes: require.resolve('@jitl/quickjs-ffi-types', { paths: [path.dirname(quickjsCore)] }),
  };
  if (language === 'python') {
    try {
      modules.pyodide = require.resolve('pyodide');
    } catch (error) {
      throw new ToolError(
        'code_run needs the package pyodide to run Python: install it next to thoughtline (npm install pyodide). JavaScript runs without it.',
        { retryable: false, cause: error },
      );
    }
  }
  return modules;
}

/** The package folder holding a resolved entry file: the nearest parent with a package.json. */
function packageDir(entry: string): string {
  let dir = path.dirname(entry);
  while (dir !== path.dirname(dir)) {
    try {
      readFileSync(path.join(dir, 'package.json'));
      return dir;
    } catch {
      dir = path.dirname(dir);
    }
  }
  return path.dirname(entry);
}

/** The child's resident memory, from /proc (Linux); undefined elsewhere or once it has gone. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return undefined;
  }
}

/**
 * Runs one job in a new process and waits for its answer. The process runs in an empty network
 * namespace where the machine has one, under Node's permission model, with an empty environment
 * and no code generation from strings (`codeChildCommand`); `switches` are for tests only. From the
 * moment the runtime says it is ready, the code has `cpuMs` (QuickJS stops itself; the process is
 * killed `STOP_GRACE_MS` later whatever it does) and may grow `memoryBytes` past its loaded size
 * (resident memory read from /proc every 50 ms; past it, plus 32 MiB, the process is killed). Cancelling the activity kills it
 * too. The call settles only once the process has exited.
 */
export function runCodeChild(
  job: CodeJob,
  context: ToolContext,
  fetch?: CodeFetch,
  switches: SandboxSwitches = {},
): Promise<CodeAnswer> {
  const modules = runtimeModules(job.language);
  const readable = Object.values(modules).map((entry) => packageDir(entry));
  const command = codeChildCommand(readable, job.limits.stackBytes, switches);
  const off = new Set(switches.off ?? []);
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: command.env,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    let outcome: { answer: CodeAnswer } | { error: unknown } | undefined;
    let watch: NodeJS.Timeout | undefined;
    const end = (result: NonNullable<typeof outcome>) => {
      if (outcome) return;
      outcome = result;
      clearTimeout(timer);
      clearInterval(watch);
      context.signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const stop = (message: string) => end({ error: refuse(message) });
    let timer = setTimeout(
      () => stop(`The ${job.language} runtime did not load within ${LOAD_TIMEOUT_MS} ms; its process was stopped.`),
      LOAD_TIMEOUT_MS,
    );
    const onReady = () => {
      clearTimeout(timer);
      if (!off.has('cpu-deadline'))
        timer = setTimeout(
          () => stop(`The code ran past its CPU limit of ${job.limits.cpuMs} ms; its process was stopped.`),
          job.limits.cpuMs + STOP_GRACE_MS,
        );
      const loaded = residentBytes(child.pid);
      if (loaded === undefined || off.has('memory-watchdog')) return;
      // The watchdog is the limit for both runtimes: QuickJS 0.32's build cannot count its own heap
      // (no malloc_usable_size in its wasm), so its setMemoryLimit never trips; a test holds this.
      const allowed = job.limits.memoryBytes + RESIDENT_SLACK;
      watch = setInterval(() => {
        const now = residentBytes(child.pid);
        if (now !== undefined && now - loaded > allowed)
          stop(`The code used more than its memory limit of ${job.limits.memoryBytes} bytes; its process was stopped.`);
      }, WATCH_MS);
    };
    const onAbort = () => end({ error: context.signal.reason ?? new Error('cancelled') });
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.on('message', (message: unknown) => {
      if ((message as { kind?: unknown } | null)?.kind === 'ready') return onReady();
      const request = FetchRequest.safeParse(message);
      if (request.success) {
        const reply = (answer: { result: unknown } | { error: string }) => {
          if (!outcome && child.connected) child.send({ kind: 'fetched', id: request.data.id, ...answer });
        };
        if (!fetch) return reply({ error: 'fetch: this tool has no network' });
        fetch(request.data.request).then(
          (result) => reply({ result }),
          (error: unknown) => reply({ error: `fetch: ${error instanceof Error ? error.message : String(error)}` }),
        );
        return;
      }
      const parsed = ChildAnswer.safeParse(message);
      if (!parsed.success) return stop('The code process sent an answer that could not be read.');
      if (parsed.data.kind === 'failed') return stop(`The ${job.language} runtime failed: ${parsed.data.message}`);
      end({ answer: parsed.data });
    });
    child.on('error', (error) =>
      end({ error: new ToolError(`The code process could not start: ${error.message}`, { cause: error }) }),
    );
    // 'close', not 'exit': the answer may still be in the IPC channel when the process has exited.
    child.on('close', (code, signal) => {
      end({
        error: refuse(
          `The code process ended without an answer (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ''}.`,
        ),
      });
      const result = outcome!;
      if ('answer' in result) resolve(result.answer);
      else reject(result.error);
    });
    child.send({ ...job, modules });
  });
}
