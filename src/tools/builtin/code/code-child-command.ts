import path from 'node:path';
import { CODE_CHILD_MARKER, CODE_CHILD_SOURCE, codeChildSource } from './code-child-source';
import { networkNamespace } from './network-namespace';
import { SANDBOX_OFF_FLAG, type SandboxLayer, type SandboxSwitches } from './sandbox-layers';

/** The child's own V8 heap (host-side strings and messages); the code's memory is the runtime's, counted apart. */
const CHILD_HEAP_MB = 256;
/** The layers the child program applies itself; the argv names those a test switched off. */
const IN_CHILD: readonly SandboxLayer[] = ['network-modules', 'pyodide-api', 'lockdown'];

export interface CodeChildCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * The command that starts one code process: in an empty network namespace where the machine has
 * one, under the permission model reading only `readable` folders, without code generation from
 * strings, with an empty environment. `switches` (tests only) leave layers out.
 */
export function codeChildCommand(
  readable: string[],
  stackBytes: number,
  switches: SandboxSwitches = {},
): CodeChildCommand {
  const off = new Set(switches.off ?? []);
  const namespace = networkNamespace();
  const prefix = !off.has('network-namespace') && namespace.available ? namespace.prefix : [];
  const node = [
    ...(off.has('permission') ? [] : ['--permission', ...readable.map((dir) => `--allow-fs-read=${dir}${path.sep}`)]),
    ...(off.has('no-code-generation') ? [] : ['--disallow-code-generation-from-strings']),
    // QuickJS's recursion runs on V8's native stack as wasm frames: about four bytes of it per byte of QuickJS stack.
    `--stack-size=${Math.max(984, Math.ceil((stackBytes * 4) / 1024))}`,
    `--max-old-space-size=${CHILD_HEAP_MB}`,
    '-e',
    switches.escape === undefined ? CODE_CHILD_SOURCE : codeChildSource(switches.escape),
    CODE_CHILD_MARKER,
    ...IN_CHILD.filter((layer) => off.has(layer)).map((layer) => SANDBOX_OFF_FLAG + layer),
  ];
  const [file, ...args] = [...prefix, process.execPath, ...node];
  return { file: file!, args, env: off.has('empty-env') ? { ...process.env } : {} };
}
