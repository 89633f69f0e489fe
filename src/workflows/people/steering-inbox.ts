import type { SteeringInstruction } from '../../shared';
import type { ChainBuilder } from '../core/chain-builder';
import type { RunState } from '../core/run-state';

/** Longer instructions are cut: a signal must not be able to flood the context window. */
const MAX_INSTRUCTION_CHARS = 4_000;

/**
 * Steering instructions from the `steer` signal, held until the next thought. The signal handler
 * only queues (a throwing handler would wedge the workflow); delivery happens in the loop.
 */
export class SteeringInbox {
  private queue: SteeringInstruction[];

  constructor(carried: readonly SteeringInstruction[] = []) {
    this.queue = [...carried];
  }

  get waiting(): readonly SteeringInstruction[] {
    return this.queue;
  }

  /** Blank instructions are dropped. */
  receive(request: SteeringInstruction): void {
    const text = typeof request?.text === 'string' ? request.text.trim().slice(0, MAX_INSTRUCTION_CHARS) : '';
    if (!text) return;
    this.queue.push({ text, ...(request.by ? { by: String(request.by) } : {}) });
  }

  /** Each waiting instruction becomes a visible step and joins the conversation; returns how many. */
  deliver(chain: ChainBuilder, state: RunState): number {
    const delivered = this.queue;
    this.queue = [];
    for (const { text, by } of delivered) {
      const who = by ?? 'a person';
      chain.thinking(`Instruction from ${who}: ${text}`, { level: 'full' }, { kind: 'steer', by: who });
      state.appendUserText(`[Instruction from ${who}, a person supervising this run; follow it from now on] ${text}`);
    }
    return delivered.length;
  }
}
