/**
 * What stays on the code process's `process` once its runtime has loaded (the lockdown): every
 * other own property is deleted, and one that cannot be deleted stops the process before the code
 * runs, so a door a newer Node adds is closed by default. Kept are only what the child program and
 * the Node internals it runs through look up at run time; none of them reaches another process, a
 * file, a module or a debugger. Symbols stay (the IPC channel's handle is one). Gone, among others:
 * `kill` and `_kill` (signals to any process of the worker's user), `_debugProcess` and
 * `_debugEnd` (open another process's inspector), `dlopen`, `binding`, `_linkedBinding`,
 * `getBuiltinModule`, `execve`, `chdir`, `setuid`, `report`, `_rawDebug`, `abort`.
 */
export const PROCESS_KEPT: readonly string[] = [
  // EventEmitter's state: the IPC 'message' listener and 'exit' are events of `process`.
  '_events',
  '_eventsCount',
  '_maxListeners',
  'domain',
  // The IPC channel to the worker: `send` and what it and the channel's reader call.
  'channel',
  '_channel',
  '_handleQueue',
  '_pendingMessage',
  'send',
  '_send',
  'connected',
  'disconnect',
  '_disconnect',
  // Exiting once the answer is sent: `exit` reads `_exiting` and calls `reallyExit` by name (this process only).
  'exit',
  'reallyExit',
  '_exiting',
  // Node's internals at run time: ticks (IPC callbacks), warnings (headed with `release.name` and
  // `pid`, written to `stderr`), uncaught errors (C++ calls `_fatalException`), the IPC reader
  // (`platform`), the console (`stdout`, `stderr`) and debug logs (`env`, which is empty).
  'nextTick',
  'emitWarning',
  '_fatalException',
  'release',
  'pid',
  'platform',
  'stdout',
  'stderr',
  'env',
  // Node's module loader resolves a module's paths against `cwd` (read only): the network hooks'
  // refusal is such a module, and without it their refusal would be a TypeError of the loader.
  'cwd',
  // Pyodide's system calls behind Python's os.getuid() and os.umask().
  'getuid',
  'umask',
  // Non-configurable in Node 22, so they cannot be deleted; read-only facts.
  'exitCode',
  'features',
  'argv0',
  'permission',
];
