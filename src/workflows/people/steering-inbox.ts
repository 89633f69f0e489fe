import { z } from 'zod';
import type { SteeringInstruction } from '../../domain';
import type { ChainBuilder } from '../core/chain/chain-builder';
import { cutText, readMessage } from '../core/read-message';
import type { RunState } from '../core/state/run-state';

/** Longer instructions are cut (with a marker): a signal must not be able to flood the context window. */
export const MAX_INSTRUCTION_CHARS = 4_000;
/** Instructions waiting at once; further ones are refused until the next thought delivers the queue. */
export const MAX_QUEUED_INSTRUCTIONS = 50;
/** Characters of instruction text waiting at once (about 20 full-length instructions); further ones are refused. */
export const MAX_QUEUED_CHARS = 80_000;
/** Longest `by` kept; longer ones are cut. */
const MAX_BY_CHARS = 200;

/** What the `steer` signal accepts; `by` may also be a number or boolean (older clients sent those), null means absent. */
const SteerPayload = z.object({
  text: z.string(),
  by: z
    .union([z.string(), z.number(), z.boolean()])
    .nullish()
    .transform((by) => (by === null || by === undefined || by === '' ? undefined : cutText(String(by), MAX_BY_CHARS))),
});

/** What became of one `steer` signal. */
export type SteerOutcome = 'queued' | 'blank' | 'malformed' | 'refused';

/**
 * Steering instructions from the `steer` signal, held until the next thought. The signal handler
 * only queues (a throwing handler would wedge the workflow); delivery happens in the loop.
 * Limits: past MAX_QUEUED_INSTRUCTIONS waiting instructions or MAX_QUEUED_CHARS of waiting text,
 * a new instruction is refused, not merged: the person sees in the chain, at the next thought,
 * how many were refused, and may send them again once the queue is delivered. Deterministic.
 */
export class SteeringInbox {
  private queue: SteeringInstruction[];
  private queuedChars: number;
  private refusedSinceDelivery: number;

  /** `carried` and `refused` come from the previous Temporal run of the same agent run, if any. */
  constructor(carried: readonly SteeringInstruction[] = [], refused = 0) {
    this.queue = [...carried];
    this.refusedSinceDelivery = refused;
    this.queuedChars = this.queue.reduce((sum, i) => sum + i.text.length, 0);
  }

  get waiting(): readonly SteeringInstruction[] {
    return this.queue;
  }

  /** Instructions refused since the last delivery. */
  get refused(): number {
    return this.refusedSinceDelivery;
  }

  /** Total over any payload: blank instructions are dropped, malformed ones and those past the limits refused. */
  receive(raw: unknown): SteerOutcome {
    const request = readMessage(SteerPayload, raw);
    if (!request) return 'malformed';
    const text = cutText(request.text.trim(), MAX_INSTRUCTION_CHARS);
    if (!text) return 'blank';
    if (this.queue.length >= MAX_QUEUED_INSTRUCTIONS || this.queuedChars + text.length > MAX_QUEUED_CHARS) {
      this.refusedSinceDelivery++;
      return 'refused';
    }
    this.queue.push({ text, ...(request.by ? { by: request.by } : {}) });
    this.queuedChars += text.length;
    return 'queued';
  }

  /** Each waiting instruction becomes a visible step and joins the conversation; returns how many. */
  deliver(chain: ChainBuilder, state: RunState): number {
    const delivered = this.queue;
    const refused = this.refusedSinceDelivery;
    this.queue = [];
    this.queuedChars = 0;
    this.refusedSinceDelivery = 0;
    for (const { text, by } of delivered) {
      const who = by ?? 'a person';
      chain.thinking(`Instruction from ${who}: ${text}`, { level: 'full' }, { kind: 'steer', by: who });
      state.appendUserText(`[Instruction from ${who}, a person supervising this run; follow it from now on] ${text}`);
    }
    if (refused > 0) {
      chain.thinking(
        `${refused} further steering instruction${refused === 1 ? ' was' : 's were'} refused: at most ${MAX_QUEUED_INSTRUCTIONS} instructions and ${MAX_QUEUED_CHARS} characters wait at once. Send them again if they still apply.`,
        { level: 'full' },
      );
    }
    return delivered.length;
  }
}
