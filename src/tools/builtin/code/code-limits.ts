/** Caps of one `code_run` execution. Every one is enforced in the child process or where files are read and written. */
export interface CodeLimits {
  /** Time the code may run, from the moment its runtime is loaded. Default 5,000 ms. */
  cpuMs: number;
  /** Memory the code may use: the process's resident growth once its runtime is loaded (Linux). Default 64 MiB. */
  memoryBytes: number;
  /** QuickJS's stack; deep recursion stops with a stack overflow (about 1,500 calls deep at the default 256 KiB). */
  stackBytes: number;
  /** Characters kept of stdout, of stderr and of the value each; the rest is cut with a marker. Default 20,000. */
  maxOutputChars: number;
  /** Files the code may be given (`files`). Default 20. */
  maxInputFiles: number;
  /** Bytes of those files, all together. Default 4 MiB. */
  maxInputBytes: number;
  /** Files written back under the root after one execution. Default 20. */
  maxOutputFiles: number;
  /** Bytes written back, all together. Default 4 MiB. */
  maxOutputBytes: number;
  /** Bytes of kept variables (JSON) carried to the next execution of the run. Default 256 KiB. */
  maxStateBytes: number;
  /** Requests `fetch` may make in one execution, when the tool has an HTTP tool to send them through. Default 10. */
  maxFetches: number;
}

export const DEFAULT_CODE_LIMITS: CodeLimits = Object.freeze({
  cpuMs: 5_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxOutputChars: 20_000,
  maxInputFiles: 20,
  maxInputBytes: 4 * 1024 * 1024,
  maxOutputFiles: 20,
  maxOutputBytes: 4 * 1024 * 1024,
  maxStateBytes: 256 * 1024,
  maxFetches: 10,
});

/** Upper bounds a caller may raise a limit to: past these a single call could hold a worker for long or take its memory. */
const CEILINGS: CodeLimits = Object.freeze({
  cpuMs: 300_000,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  // The child's V8 stack is sized at four times this, which must stay under the 8 MiB main-thread stack.
  stackBytes: 1024 * 1024,
  maxOutputChars: 1_000_000,
  maxInputFiles: 1_000,
  maxInputBytes: 256 * 1024 * 1024,
  maxOutputFiles: 1_000,
  maxOutputBytes: 256 * 1024 * 1024,
  maxStateBytes: 16 * 1024 * 1024,
  maxFetches: 100,
});

/** The limits with the caller's overrides, each checked to be a positive integer within its ceiling. */
export function codeLimits(overrides: Partial<CodeLimits>): CodeLimits {
  const limits = { ...DEFAULT_CODE_LIMITS };
  for (const key of Object.keys(DEFAULT_CODE_LIMITS) as Array<keyof CodeLimits>) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0 || value > CEILINGS[key])
      throw new RangeError(
        `createCodeRunTool: ${key} must be a positive integer up to ${CEILINGS[key]}, got ${String(value)}.`,
      );
    limits[key] = value;
  }
  return Object.freeze(limits);
}
