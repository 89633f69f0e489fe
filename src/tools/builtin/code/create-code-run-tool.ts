import path from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolDefinition } from '../../define-tool';
import { refuse } from '../refuse';
import type { ToolOverrides } from '../tool-overrides';
import { readCodeInputs, writeCodeOutputs, type RefusedFile, type WrittenFile } from './code-files';
import { codeLimits, type CodeLimits } from './code-limits';
import { codeStateRef, loadCodeState, saveCodeState } from './code-state';
import { checkCodeRunNode } from './check-code-run-node';
import { networkNamespace, warnWithoutNetworkNamespace } from './network-namespace';
import { runCodeChild, type CodeFetch, type CodeLanguage } from './run-code-child';

/** Longest program a call may send. */
export const MAX_CODE_CHARS = 100_000;

export interface CodeRunToolOptions extends Partial<CodeLimits> {
  /** The directory the code's files come from and go back to; nothing outside it is read or written. */
  root: string;
  /** Languages offered. Default both; Python needs the package `pyodide` (`npm install pyodide`). */
  languages?: readonly CodeLanguage[];
  /** Where each run's kept variables live. Default `<root>/.code-run`, which the code can neither list, read nor write. */
  stateDir?: string;
  /** The tool's name. Default `code_run`. */
  name?: string;
  /** `approval` defaults to `always`: the code writes into the root. */
  overrides?: ToolOverrides;
  /**
   * An HTTP tool (`createHttpTool`) that JavaScript's `fetch` goes through, with its allow-list,
   * address guard and limits; GET and HEAD only. Without it the code has no network.
   */
  http?: ToolDefinition;
}

export interface CodeRunResult {
  language: CodeLanguage;
  /** False when the code threw or stopped at a limit; `error` says why. */
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The value of the program's last expression, as text (JSON when it is not a string). */
  value?: string;
  error?: string;
  filesWritten: WrittenFile[];
  filesRefused?: RefusedFile[];
  /** The run's kept variables: `ref` names them; `kept` come back at the next execution, `dropped` do not. */
  state: { ref: string; kept: string[]; dropped?: string[] };
}

/**
 * `code_run`: runs JavaScript (QuickJS) or Python (Pyodide), both WebAssembly, in a process of
 * its own per call, with time, memory, stack, output and file limits and no network but `http`'s.
 * The code sees the files its call lists, and what it writes goes back under the root. Top-level
 * variables are kept for the run's next call, in `stateDir`, keyed by the run: continue-as-new
 * keeps them and the history holds only the key. Approval `always` by default. Throws
 * `CodeRunNodeError` on a Node older than the sandbox needs (22.15), naming the command that fixes it.
 */
export function createCodeRunTool(options: CodeRunToolOptions) {
  const {
    root,
    languages = ['javascript', 'python'],
    stateDir,
    name = 'code_run',
    overrides = {},
    http,
    ...rest
  } = options;
  if (typeof root !== 'string' || root === '' || root.includes('\0'))
    throw new TypeError('createCodeRunTool: root must be a directory path.');
  if (languages.length === 0 || languages.some((l) => l !== 'javascript' && l !== 'python'))
    throw new TypeError('createCodeRunTool: languages must list javascript, python or both.');
  const absolute = path.resolve(root);
  const states = path.resolve(stateDir ?? path.join(absolute, '.code-run'));
  const inside = path.relative(absolute, states);
  // A state folder inside the root: the top folder holding it is off limits to the code, both ways.
  const reserved = inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? inside.split(path.sep)[0]! : '';
  const limits = codeLimits(rest);
  // At the worker's start, not after a person approved a call: the child runs on this Node.
  checkCodeRunNode();
  const namespace = networkNamespace();
  if (!namespace.available) warnWithoutNetworkNamespace(namespace.reason);
  const offered = [...new Set(languages)] as [CodeLanguage, ...CodeLanguage[]];
  return defineTool({
    name,
    type: 'custom',
    description:
      `Runs a short ${offered.join(' or ')} program in a sandbox without network and returns its output. ` +
      `Limits: ${limits.cpuMs} ms of run time, ${Math.round(limits.memoryBytes / 1048576)} MiB of memory, ${limits.maxOutputChars} characters of output. ` +
      'The value of the last expression is returned. Files listed in `files` (paths under the workspace) are given to the code ' +
      '(JavaScript: files.read(path), files.write(path, text), files.list(); Python: ordinary files in the current directory); ' +
      'files it writes are saved back into the workspace. Top-level variables holding JSON values are kept for the next call.' +
      (namespace.available
        ? ''
        : ' (The network is denied inside the sandbox process; this machine has no network namespace for it.)') +
      (http
        ? ' JavaScript may await fetch(url) (GET or HEAD) to the hosts the HTTP tool allows; Python has no network.'
        : ''),
    input: z.object({
      language: z.enum(offered).describe('The language of the program'),
      code: z.string().min(1).max(MAX_CODE_CHARS).describe('The program'),
      files: z
        .array(z.string().min(1).max(4096))
        .max(limits.maxInputFiles)
        .optional()
        .describe('Workspace files the program may read, relative to the workspace root'),
    }),
    timeoutMs: limits.cpuMs + 90_000,
    retry: { maximumAttempts: 1 },
    approval: 'always',
    summaryTemplate: 'Ran {language} code',
    ...overrides,
    async execute({ language, code, files = [] }, context): Promise<CodeRunResult> {
      const inputs = await readCodeInputs(absolute, files, limits, reserved);
      const ref = codeStateRef(context.idempotencyKey);
      const state = await loadCodeState(states, ref);
      const fetch = http && language === 'javascript';
      const answer = await runCodeChild(
        { language, code, files: inputs, globals: state[language], limits, reserved, fetch: Boolean(fetch) },
        context,
        fetch ? fetchThrough(http, context) : undefined,
      );
      const { written, refused } = await writeCodeOutputs(absolute, answer.files, limits, reserved);
      const saved = await saveCodeState(states, ref, state, language, answer.globals, limits.maxStateBytes);
      const allRefused = [...(answer.refused ?? []), ...refused];
      const dropped = [...answer.dropped, ...saved.left].sort();
      return {
        language,
        ok: answer.error === undefined,
        stdout: answer.stdout,
        stderr: answer.stderr,
        ...(answer.value !== undefined ? { value: answer.value } : {}),
        ...(answer.error !== undefined ? { error: answer.error } : {}),
        filesWritten: written,
        ...(allRefused.length > 0 ? { filesRefused: allRefused } : {}),
        state: { ref, kept: saved.kept, ...(dropped.length > 0 ? { dropped } : {}) },
      };
    },
  });
}

/** Reads a request of the program's like a model's call of the HTTP tool: parsed by its schema, GET and HEAD only. */
function fetchThrough(http: ToolDefinition, context: ToolContext): CodeFetch {
  return async (request) => {
    const method = (request as { method?: unknown } | null)?.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD')
      throw refuse(`${String(method)} is not allowed from code; only GET and HEAD.`);
    const args = http.input.safeParse({ ...(request as object), method });
    if (!args.success) throw refuse(`the request is not valid: ${args.error.issues.map((i) => i.message).join('; ')}`);
    return http.execute(args.data, context);
  };
}
