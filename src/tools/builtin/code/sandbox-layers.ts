/**
 * The layers between `code_run`'s program and the worker, each stopping something on its own
 * (docs/security.md, "The code sandbox's barriers"). All are on for every execution; a test may
 * switch one off to show what it alone stops (`SandboxSwitches`). Where two layers guard one door
 * (the network has three), each is tested with the others off, so each is known to hold alone.
 */
export const SANDBOX_LAYERS = [
  /** An empty network namespace (`unshare --net`) on Linux: no interface but a loopback that is down. */
  'network-namespace',
  /** Module hooks and a filtered `process.getBuiltinModule`: no socket, DNS, HTTP, TLS, UDP or HTTP/2 module by any path. */
  'network-modules',
  /** Pyodide's socket layer, host mounts and package loading removed; `js` and `pyodide_js` not importable. */
  'pyodide-api',
  /** Node's permission model: reads of the runtimes' folders only, no writes, child processes, workers, addons or bindings. */
  'permission',
  /** `--disallow-code-generation-from-strings`: `Function` and `eval` compile nothing in the process's realm. */
  'no-code-generation',
  /** Once the runtime is loaded: `require` and the network globals removed, and on `process` all but an allow-list (`PROCESS_KEPT`). */
  'lockdown',
  /** The process starts with an empty environment: no worker secrets. */
  'empty-env',
  /** The parent kills the process once its resident memory grew past the limit. */
  'memory-watchdog',
  /** The parent kills the process one second after its CPU limit, whatever it does. */
  'cpu-deadline',
] as const;
export type SandboxLayer = (typeof SANDBOX_LAYERS)[number];

/** The argv flag that tells the child program to leave one of its own layers off (tests only). */
export const SANDBOX_OFF_FLAG = '--off=';

/**
 * Test-only switches for one execution: never set by `createCodeRunTool`, not exported from the
 * package. `off` leaves layers out; `escape` is host JavaScript the child runs after `ready`, standing
 * for code that got out of the runtime (see `codeChildSource`).
 */
export interface SandboxSwitches {
  off?: readonly SandboxLayer[];
  escape?: string;
}
