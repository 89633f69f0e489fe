import type { AgentInput } from '../../../domain';
import type { SentConversations } from './sent-conversations';
import type { ChainBuilder } from '../chain/chain-builder';
import type { RunState } from './run-state';

/** How a run shows its progress outside the workflow. */
export interface Progress {
  /** Marks the Web UI's "Current Details" markdown changed (rendered when next read): no history event, so any step may call it. */
  details(): void;
  /** Also upserts the search attributes (one history event each), so once per turn; `status` overrides the searchable status at the end. */
  publish(status?: string): void;
}

/**
 * What every part of one agent run shares, built once by runAgent and passed first everywhere.
 * Deterministic: all of it lives in the workflow; the chain and the state are the only things
 * the parts change.
 */
export interface RunContext {
  /**
   * Replaced by the preflight of a new run that follows an agent definition (run/resolve-agent.ts),
   * and by a raise of a paused budget (loop/guards/budget-pause.ts), which continue-as-new carries.
   */
  input: AgentInput;
  readonly workflowId: string;
  readonly chain: ChainBuilder;
  readonly state: RunState;
  readonly progress: Progress;
  /** What this Temporal run sent the model lately: a call names the prefix it shares (see model-call.ts). */
  readonly conversations: SentConversations;
  /**
   * Steps of this Temporal run whose observation is a `runTool` activity's result as it is in the
   * history (not cut, summarised, reused or from a local activity): the result may name them.
   */
  readonly resultsInHistory: Set<string>;
}
