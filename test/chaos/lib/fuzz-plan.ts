import type { AgentInputInit } from '../../../src/domain';
import { nativeEndTurn, nativeMidTurn } from './fuzz-native-turns';
import { runSeed, seededRandom } from './seeded-random';
import { reactEndTurn, reactMidTurn } from './fuzz-react-turns';
import { fuzzContext, type FuzzTurn } from './fuzz-turn';

export interface FuzzPlan {
  index: number;
  seed: number;
  strategy: 'native' | 'react-text';
  /** The scripted model's turns, in order, each with what the run must make of it. */
  turns: FuzzTurn[];
  input: AgentInputInit;
}

/** No stall in the runs that do not test it: every bad turn must reach the model as an observation. */
const NO_STALL = 1_000;
/** At most this many 100k+ texts or arguments per run: enough to hit every path, bounded history. */
const HUGE_PER_RUN = 2;

/**
 * A seeded run of fuzzed model replies: 3-8 turns the run must go on from, then a turn that
 * ends it. Text-ReAct runs sometimes get a low stall threshold; the plan then follows the stall
 * detector's rule (warned once at the threshold, stopped at the next unreadable reply in a row)
 * and ends with the summary turn the stop asks for.
 */
export function planFuzz(scenarioSeed: number, index: number): FuzzPlan {
  const seed = runSeed(scenarioSeed, index);
  const r = seededRandom(seed);
  const ctx = fuzzContext(r, HUGE_PER_RUN);
  const strategy = index % 2 === 0 ? 'native' : 'react-text';
  const marker = `fuzz-${seed}`;
  const stallThreshold = strategy === 'react-text' && r.chance(0.4) ? r.int(2, 3) : NO_STALL;
  const turns: FuzzTurn[] = [];
  const midTurns = r.int(3, 8);
  let unreadableInRow = 0;
  let warned = false;
  for (let i = 0; i < midTurns; i++) {
    const turn = strategy === 'native' ? nativeMidTurn(ctx) : reactMidTurn(ctx);
    if (turn.expect.kind !== 'format_error') {
      unreadableInRow = 0;
      warned = false;
      turns.push(turn);
      continue;
    }
    unreadableInRow += 1;
    if (unreadableInRow >= stallThreshold && warned) {
      turns.push({ ...turn, expect: { kind: 'stalled' } });
      const summary = `${marker} summary after a stall`;
      turns.push({
        label: 'summary after the stall',
        turn: { content: [{ type: 'text', text: summary }] },
        expect: { kind: 'end', reason: 'stalled', answer: summary, exact: true, calls: [] },
      });
      break;
    }
    if (unreadableInRow >= stallThreshold) warned = true;
    turns.push(turn);
  }
  if (turns.at(-1)?.expect.kind !== 'end')
    turns.push(strategy === 'native' ? nativeEndTurn(ctx, marker) : reactEndTurn(ctx, marker));
  return {
    index,
    seed,
    strategy,
    turns,
    input: {
      task: `Fuzz run ${index}`,
      model: { provider: 'scripted', model: 'fuzz-model' },
      strategy,
      // Exactly the turns scripted: one iteration more would call the model past its script.
      maxIterations: turns.filter((t) => t.expect.kind !== 'end' || t.expect.reason !== 'stalled').length,
      stallThreshold,
      // One Temporal run per agent run, so its one history holds every task to check.
      continueAsNewAtBytes: 40_000_000,
    },
  };
}

export function describeFuzz(plan: FuzzPlan): string {
  const threshold = plan.input.stallThreshold === NO_STALL ? '' : `, stall threshold ${plan.input.stallThreshold}`;
  return [
    `run ${plan.index} seed ${plan.seed} (${plan.strategy}${threshold})`,
    ...plan.turns.map((t, i) => `  turn ${i + 1}: ${t.label} → ${t.expect.kind}`),
  ].join('\n');
}

/** How often each kind of turn occurs in the plans (details such as tool names folded), printed with the seed. */
export function fuzzCoverage(plans: readonly FuzzPlan[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const turn of plans.flatMap((p) => p.turns)) {
    const at = turn.label.indexOf(': ');
    const parts =
      at < 0
        ? [turn.label]
        : turn.label
            .slice(at + 2)
            .split(', ')
            .map((part) => `${turn.label.slice(0, at)}: ${part.replace(/^unknown .*/s, 'unknown')}`);
    for (const kind of parts) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
