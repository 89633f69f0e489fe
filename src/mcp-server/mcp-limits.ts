import { MAX_TASK_BYTES } from '../domain/run/payload-size';
import { MAX_CONTEXT_DATA_BYTES } from '../domain/run/agent-context';

/** A task, as the run's input bounds it (UTF-8 bytes). */
export const MAX_TASK = MAX_TASK_BYTES;
/** The `context` object as JSON (UTF-8 bytes): the run's context data bound. */
export const MAX_CONTEXT = MAX_CONTEXT_DATA_BYTES;
/** A run id a client sends (`get_run`, a resource URI, a task id). */
export const MAX_RUN_ID_CHARS = 200;
/** The answer text in a tool result; a longer one is cut with a note saying where the rest is. */
export const MAX_ANSWER_CHARS = 50_000;
/** What one elicitation shows of a call's arguments, as JSON. */
export const MAX_ARGUMENTS_SHOWN = 4_000;
/** A JSON-RPC request body over HTTP, as `serve`'s API bounds its bodies. */
export const MAX_BODY_BYTES = 256 * 1024;
/** Open HTTP sessions at most, and for one person; one more is refused until one closes or expires. */
export const MAX_SESSIONS = 1_000;
export const MAX_SESSIONS_PER_PERSON = 20;
/** A session without a request for this long is closed (its runs go on; get_run fetches them). */
export const SESSION_IDLE_MS = 60 * 60 * 1_000;
/** Tasks one session lists (`tasks/list`): the latest it started. */
export const MAX_LISTED_TASKS = 100;

/** `text` cut to `max` characters with a note naming what was left out. */
export function cutText(text: string, max: number, where: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[cut: ${text.length - max} more characters; the whole text is in ${where}]`;
}
