import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { CodeLanguage } from './run-code-child';

/**
 * What one run keeps between executions: each language's variables as JSON texts. Versioned: a
 * file that does not parse, or of another version, is read as empty rather than failing the call.
 */
const CodeState = z.object({
  schemaVersion: z.literal(1),
  javascript: z.record(z.string(), z.string()),
  python: z.record(z.string(), z.string()),
});
type CodeState = z.infer<typeof CodeState>;

const EMPTY: CodeState = { schemaVersion: 1, javascript: {}, python: {} };

/**
 * The run a call belongs to, from its idempotency key (`<workflowId>:<stepId>`). Continue-as-new
 * keeps the workflow id, so the state outlives it without anything in the history but this key.
 */
export function codeStateRef(idempotencyKey: string): string {
  const cut = idempotencyKey.lastIndexOf(':');
  const runKey = cut > 0 ? idempotencyKey.slice(0, cut) : idempotencyKey;
  return createHash('sha256').update(runKey).digest('hex').slice(0, 32);
}

const stateFile = (dir: string, ref: string): string => path.join(dir, `${ref}.json`);

export async function loadCodeState(dir: string, ref: string): Promise<CodeState> {
  try {
    const parsed = CodeState.safeParse(JSON.parse(await fs.readFile(stateFile(dir, ref), 'utf8')));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/**
 * Keeps one language's variables, smallest first, up to `maxBytes` of JSON; returns the names
 * left out. Written to a temporary file and renamed, so a crash leaves the old state or the new.
 */
export async function saveCodeState(
  dir: string,
  ref: string,
  state: CodeState,
  language: CodeLanguage,
  globals: Record<string, string>,
  maxBytes: number,
): Promise<{ kept: string[]; left: string[] }> {
  const kept: Record<string, string> = {};
  const left: string[] = [];
  let bytes = 0;
  for (const [name, json] of Object.entries(globals).sort((a, b) => a[1].length - b[1].length)) {
    const size = Buffer.byteLength(name) + Buffer.byteLength(json);
    if (bytes + size > maxBytes) left.push(name);
    else {
      kept[name] = json;
      bytes += size;
    }
  }
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const next = { ...state, [language]: kept };
  const temporary = `${stateFile(dir, ref)}.${process.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(next), { mode: 0o600 });
  await fs.rename(temporary, stateFile(dir, ref));
  return { kept: Object.keys(kept).sort(), left: left.sort() };
}
