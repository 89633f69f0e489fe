import type { AgentInputInit } from '../../../src/domain/run/agent-input';
import { message, textBlock, toolUse, toolUseBlock, type FakeMessageReply } from '../../../src/testing';
import { CHAOS_TOOL_NAMES } from './chaos-tools-module';
import { runSeed, seededRandom, type SeededRandom } from './seeded-random';

/**
 * One seeded chaos run: what the model says at each turn and where the worker is killed. Pure:
 * the same seed and index give the same plan, so an undisturbed run of it is the reference.
 */
export interface PlannedCall {
  /** The tool_use id; fixed, so correlation ids in the chain are comparable across runs. */
  id: string;
  name: 'deposit' | 'notify';
  input: Record<string, unknown>;
}

export interface PlannedTurn {
  thought: string;
  /** Empty on the last turn, which calls `finish`. */
  calls: PlannedCall[];
}

/**
 * Where the worker dies. `model`: while the fake server holds turn `turn`'s reply (after
 * `afterEvents` SSE events). `tool`: after call `call` of turn `turn` applied its side effect at
 * the external service, before the activity completes. `between`: `delayMs` after the reply of
 * turn `turn`'s model call (`after: 'model'`) or of its first tool call (`after: 'tool'`) went out.
 * `delayMs` on `model` and `tool` is how long the hold lasts before the kill.
 */
export type KillPoint =
  | { kind: 'model'; turn: number; afterEvents: number; delayMs: number }
  | { kind: 'tool'; turn: number; call: number; delayMs: number }
  | { kind: 'between'; after: 'model' | 'tool'; turn: number; delayMs: number };

export interface RunPlan {
  label: string;
  seed: number;
  task: string;
  turns: PlannedTurn[];
  finalAnswer: string;
  kill: KillPoint;
  /** Continue-as-new after every iteration, so kills also land around handovers (every third run). */
  handsOver: boolean;
}

const TASK_MARK = /\[chaos-run ([a-z0-9-]+)\]/;

/** The run a model request belongs to, from the task text in its first message. */
export function runLabelOf(firstMessage: unknown): string | undefined {
  return TASK_MARK.exec(JSON.stringify(firstMessage ?? ''))?.[1];
}

export function planRun(scenarioSeed: number, index: number): RunPlan {
  const seed = runSeed(scenarioSeed, index);
  const rng = seededRandom(seed);
  const label = `r${index}-${seed.toString(36)}`;
  const toolTurns = rng.int(2, 4);
  const turns: PlannedTurn[] = [];
  for (let t = 0; t < toolTurns; t++) {
    const calls = Array.from({ length: rng.chance(0.3) ? 2 : 1 }, (_, k) => plannedCall(rng, label, t, k));
    turns.push({ thought: `Turn ${t}: next I will ${calls.map((c) => c.name).join(' and ')}.`, calls });
  }
  const finalAnswer = `Run ${label} done after ${toolTurns} tool turns.`;
  turns.push({ thought: 'All effects are applied; finishing.', calls: [] });
  // Not drawn from rng: a seed gives the same turns and kill point as before handovers were planned.
  return {
    label,
    seed,
    task: `[chaos-run ${label}] Apply the planned deposits and notifications.`,
    turns,
    finalAnswer,
    kill: killPoint(rng, turns),
    handsOver: index % 3 === 0,
  };
}

function plannedCall(rng: SeededRandom, label: string, turn: number, k: number): PlannedCall {
  const id = `toolu_${label.replace(/-/g, '_')}_${turn}_${k}`;
  // Arguments carry turn and index, so the external service can tell every call of a run apart.
  if (rng.chance(0.5))
    return { id, name: 'deposit', input: { account: `acct-${turn}-${k}`, amount: rng.int(1, 1000) } };
  return {
    id,
    name: 'notify',
    input: { to: rng.pick(['ops', 'finance', 'audit']), message: `turn ${turn}.${k}: ${rng.int(0, 99_999)}` },
  };
}

function killPoint(rng: SeededRandom, turns: readonly PlannedTurn[]): KillPoint {
  const toolTurns = turns.length - 1;
  switch (rng.pick(['model', 'tool', 'between'] as const)) {
    case 'model':
      // 0: before the status line; 2 and 5: mid-stream (message_start, content blocks, deltas).
      return {
        kind: 'model',
        turn: rng.int(0, toolTurns),
        afterEvents: rng.pick([0, 2, 5]),
        delayMs: rng.int(0, 1_500),
      };
    case 'tool': {
      const turn = rng.int(0, toolTurns - 1);
      return { kind: 'tool', turn, call: rng.int(0, turns[turn]!.calls.length - 1), delayMs: rng.int(0, 1_500) };
    }
    case 'between':
      return {
        kind: 'between',
        after: rng.pick(['model', 'tool'] as const),
        turn: rng.int(0, toolTurns - 1),
        delayMs: rng.int(0, 400),
      };
  }
}

/** The model's reply at `turn`: a thought and its tool calls, or the final answer through `finish`. */
export function plannedReply(plan: RunPlan, turn: number): FakeMessageReply {
  const planned = plan.turns[turn];
  if (!planned) throw new Error(`run ${plan.label} has no turn ${turn} (it plans ${plan.turns.length})`);
  if (planned.calls.length === 0) {
    return toolUse(
      'finish',
      { result: plan.finalAnswer },
      { id: `toolu_${plan.label.replace(/-/g, '_')}_finish`, text: planned.thought },
    );
  }
  return message([textBlock(planned.thought), ...planned.calls.map((c) => toolUseBlock(c.name, c.input, c.id))]);
}

/** Turn and index of the planned call with these arguments, if any. */
export function findPlannedCall(
  plan: RunPlan,
  name: string,
  input: unknown,
): { turn: number; call: number } | undefined {
  const wanted = flatKey(input);
  for (const [turn, planned] of plan.turns.entries()) {
    const call = planned.calls.findIndex((c) => c.name === name && flatKey(c.input) === wanted);
    if (call >= 0) return { turn, call };
  }
  return undefined;
}

/** Key-order-free text of a flat object: arguments come back through zod, which may reorder keys. */
const flatKey = (value: unknown): string =>
  typeof value === 'object' && value !== null
    ? JSON.stringify(value, Object.keys(value).sort())
    : JSON.stringify(value);

/**
 * The run's input. Short timeouts let a call lost with a killed worker be retried within
 * seconds; 20 attempts because every kill in a wave may interrupt the same call.
 */
export function chaosAgentInput(plan: RunPlan): AgentInputInit {
  return {
    task: plan.task,
    tools: [...CHAOS_TOOL_NAMES],
    // Every planned turn has a thought; said outright, so a run and its undisturbed reference match.
    requireThought: true,
    maxIterations: plan.turns.length + 2,
    ...(plan.handsOver ? { continueAsNewEvery: 1 } : {}),
    model: {
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      timeoutMs: 30_000,
      heartbeatTimeoutMs: 5_000,
      maximumAttempts: 20,
    },
  };
}
