import { spawn } from 'node:child_process';
import { z } from 'zod';
import type { ToolContext } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { reviewSqliteProgram, SqliteInstruction } from './review-sqlite-program';
import { SQLITE_CHILD_MARKER, SQLITE_CHILD_SOURCE } from './sqlite-child-source';
import type { SqliteLayer, SqliteSwitches } from './sqlite-layers';
import { textAfterStatement } from './text-after-statement';

export interface SqliteJob {
  file: string;
  sql: string;
  params: Array<string | number | null>;
  maxRows: number;
  maxBytes: number;
}

const Row = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null);

/** What the query process sends: what SQLite compiled (before anything runs), then rows, or why there are none. */
const ChildMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('compiled'), sourceSQL: z.string(), program: z.array(SqliteInstruction) }),
  // Rows are checked as objects only: copying them key by key would turn a column named __proto__ into a prototype.
  z.object({ kind: z.literal('rows'), columns: z.array(z.string()), rows: z.array(Row) }),
  z.object({ kind: z.literal('open'), message: z.string() }),
  z.object({ kind: z.literal('refused'), message: z.string() }),
]);

/** How a query ends: its rows, or a refusal by the database or by the tool's own checks. */
export type SqliteAnswer =
  | { kind: 'rows'; columns: string[]; rows: Record<string, unknown>[] }
  | { kind: 'open'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'not-one-statement'; compiled: string }
  | { kind: 'not-read-only'; reason: string };

/**
 * Why a compiled statement may not run, or undefined: more than one statement, or a program that
 * is not all reads with a result row. `off` names the layers a test switched off.
 */
function review(
  job: SqliteJob,
  compiled: { sourceSQL: string; program: SqliteInstruction[] },
  off: readonly SqliteLayer[],
): SqliteAnswer | undefined {
  if (!off.includes('one-statement') && textAfterStatement(job.sql, compiled.sourceSQL) !== '')
    return { kind: 'not-one-statement', compiled: compiled.sourceSQL };
  const reason = off.includes('read-only-program') ? undefined : reviewSqliteProgram(compiled.program);
  return reason === undefined ? undefined : { kind: 'not-read-only', reason };
}

/**
 * Runs one query in a new process and waits for its answer. The process compiles the statement
 * and reports it; only a statement that passes `review` runs, any other ends with its process. At
 * the deadline, or when the activity is cancelled, the process is killed and the call ends only
 * once it has exited: no query goes on using a core after its call. Its stderr is kept (the tail)
 * for a process that dies on its own.
 */
export function runSqliteQuery(
  job: SqliteJob,
  timeoutMs: number,
  context: ToolContext,
  switches: SqliteSwitches = {},
): Promise<SqliteAnswer> {
  const off = switches.off ?? [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SQLITE_CHILD_SOURCE, SQLITE_CHILD_MARKER], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    let outcome: { answer: SqliteAnswer } | { error: unknown } | undefined;
    const end = (result: NonNullable<typeof outcome>) => {
      if (outcome) return;
      outcome = result;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      // Killed or not, the call settles when the process is gone.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        end({
          error: new ToolError(`The query ran past its time limit of ${timeoutMs} ms; its process was stopped.`, {
            retryable: false,
          }),
        }),
      timeoutMs,
    );
    const onAbort = () => end({ error: context.signal.reason ?? new Error('cancelled') });
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.on('message', (raw: unknown) => {
      const message = ChildMessage.safeParse(raw);
      if (!message.success)
        return end({ error: new ToolError('The SQLite query process answered out of turn.', { retryable: false }) });
      if (message.data.kind !== 'compiled') return end({ answer: message.data });
      const refusal = review(job, message.data, off);
      if (refusal) return end({ answer: refusal });
      child.send({ kind: 'run' });
    });
    child.on('error', (error) =>
      end({
        error: new ToolError(`The SQLite query process could not start: ${error.message}`, {
          retryable: true,
          cause: error,
        }),
      }),
    );
    // 'close', not 'exit': the answer may still be in the IPC channel when the process has exited.
    child.on('close', (code, signal) => {
      end({
        error: new ToolError(
          `The SQLite query process ended without an answer (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ''}.`,
          { retryable: false },
        ),
      });
      const result = outcome!;
      if ('answer' in result) resolve(result.answer);
      else reject(result.error);
    });
    child.send({ ...job, off, explain: !off.includes('read-only-program') });
  });
}
