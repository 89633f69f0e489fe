import { z } from 'zod';
import { AgentId } from '../agents/agent-definition';
import { SignedDecisionPolicy } from '../approval/signed-decision';
import { CallerContext } from '../identity/people';
import { MAX_TASK_BYTES, utf8Bytes } from '../run/payload-size';

/**
 * A thread: one durable multi-turn conversation with an agent (an AG-UI thread, an A2A context).
 * Its workflow id is derived from who owns it and the thread id the front end chose, so a
 * stateless front end reaches the same conversation from any server, hours later; each user turn
 * starts one agent run (a child) that sees the earlier turns.
 */

/** Longest thread id a front end may choose (characters). */
export const MAX_THREAD_ID_CHARS = 256;
/** Longest idempotency key of a turn (AG-UI run id, A2A message id). */
export const MAX_TURN_ID_CHARS = 256;
/** Turns a thread keeps in its transcript; older ones remain in their runs. */
export const MAX_THREAD_TURNS_KEPT = 50;

const turnText = z
  .string()
  .min(1)
  .refine((text) => text.length <= MAX_TASK_BYTES && utf8Bytes(text) <= MAX_TASK_BYTES, {
    message: `A turn's text must be at most ${MAX_TASK_BYTES} bytes (UTF-8).`,
  });

/** The server's public keys for signed decisions, as a run takes them. */
const SignedDecisionKeys = SignedDecisionPolicy;

/** What a thread workflow starts with: whose it is and which agent answers. */
export const ThreadStart = z.object({
  threadId: z.string().min(1).max(MAX_THREAD_ID_CHARS),
  /** From authentication only: whose thread it is (id and tenant). Its roles are not used: each turn brings its own. */
  owner: CallerContext,
  /** The catalogue agent's start: its registered definition, or the generic agent's name. */
  agent: z.union([z.object({ agent: AgentId }), z.object({ agentName: z.string().min(1).max(64) })]),
  /** Questions from the agent are allowed in a thread (an AG-UI interrupt, an A2A input-required). */
  allowQuestions: z.boolean().default(true),
  /** Read by threads started before turns carried their own; a turn's run takes the turn's (ThreadTurnRequest). */
  signedDecisions: SignedDecisionKeys.optional(),
  /** Without a turn for this long (ms) the thread completes, returning its transcript; default 7 days. */
  idleMs: z.number().int().positive().optional(),
  /** Turns taken before the thread continues as new; default 100. */
  continueAsNewAfter: z.number().int().positive().optional(),
  /** Set by the thread itself when it continues as new; never by callers. */
  carried: z.unknown().optional(),
});
export type ThreadStart = z.infer<typeof ThreadStart>;
export type ThreadStartInit = z.input<typeof ThreadStart>;

/** One user turn, delivered by update-with-start. */
export const ThreadTurnRequest = z.object({
  /** Idempotency key: the same id again returns the same turn and starts nothing. */
  turnId: z.string().min(1).max(MAX_TURN_ID_CHARS),
  text: turnText,
  /** Who sent the turn, with the roles authenticated for this turn; must be the thread's owner. The turn's run takes these roles. */
  by: CallerContext,
  /** The server's decision keys when its runs require signed decisions now; the turn's run carries them (never the thread's first turn's). */
  signedDecisions: SignedDecisionKeys.optional(),
});
export type ThreadTurnRequest = z.infer<typeof ThreadTurnRequest>;

/** The turn as the thread took it: its number and the agent run that answers it. */
export const ThreadTurnReceipt = z.object({
  turn: z.number().int().positive(),
  /** Workflow id of the turn's agent run (follow its events, answer its approvals there). */
  runId: z.string(),
  /** True when `turnId` was already taken: nothing new started. */
  repeated: z.boolean(),
});
export type ThreadTurnReceipt = z.infer<typeof ThreadTurnReceipt>;

export const ThreadTurnStatus = z.enum(['running', 'completed', 'failed', 'cancelled']);
export type ThreadTurnStatus = z.infer<typeof ThreadTurnStatus>;

/** What the `thread` query returns: the kept turns, oldest first. */
export const ThreadView = z.object({
  threadId: z.string(),
  turns: z.array(
    z.object({
      turn: z.number().int().positive(),
      turnId: z.string(),
      runId: z.string(),
      user: z.string(),
      /** The run's final answer once it ended (bounded). */
      answer: z.string().optional(),
      status: ThreadTurnStatus,
    }),
  ),
  /** Turns taken in all, kept or not. */
  totalTurns: z.number().int().nonnegative(),
});
export type ThreadView = z.infer<typeof ThreadView>;

/** Longest user text and answer a thread keeps per turn (characters); the whole text stays in the turn's run. */
export const MAX_THREAD_TEXT_CHARS = 4_096;

/** One kept turn of a thread. */
export const ThreadTurnRecord = ThreadView.shape.turns.element.extend({
  user: z.string().max(MAX_THREAD_TEXT_CHARS),
  answer: z.string().max(MAX_THREAD_TEXT_CHARS).optional(),
});
export type ThreadTurnRecord = z.infer<typeof ThreadTurnRecord>;

/**
 * What a thread holds, carried through continue-as-new and returned when it completes idle (a
 * later turn starts it afresh from this). Bounded: MAX_THREAD_TURNS_KEPT turns of bounded text.
 */
export const ThreadState = z.object({
  schemaVersion: z.literal(1),
  threadId: z.string(),
  turns: z.array(ThreadTurnRecord).max(MAX_THREAD_TURNS_KEPT),
  totalTurns: z.number().int().nonnegative(),
  /** Workflow time (epoch ms) of the last turn taken or ended. */
  lastActivityAt: z.number().optional(),
});
export type ThreadState = z.infer<typeof ThreadState>;
