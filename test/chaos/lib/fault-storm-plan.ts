import { text, toolUse, type ScriptEntry } from '../../../src/testing';
import { fatalFault, retryableFault, type Fault } from './fault-catalogue';
import { runSeed, seededRandom } from './seeded-random';

/** One model call of a storm run: the faults its attempts meet, then how the call ends. */
export interface StormCall {
  faults: Fault[];
  /** `reply`: an attempt gets a good reply; `fatal`: a non-retryable fault; `exhausted`: attempts ran out. */
  ending: 'reply' | 'fatal' | 'exhausted';
}

export type StormExpectation =
  | { reason: 'success'; answer: string }
  /** `failure` is the fault that ended the call for good. */
  | { reason: 'error'; failure: Fault };

export interface StormPlan {
  index: number;
  seed: number;
  stream: boolean;
  /** Model call settings of the run: attempts per call and each attempt's start-to-close limit. */
  maximumAttempts: number;
  timeoutMs: number;
  calls: StormCall[];
  /** What the fake server answers, request by request, in arrival order. */
  script: ScriptEntry[];
  expected: StormExpectation;
  /** The longest the run may take: every wait it meets, doubled for a busy machine, plus slack. */
  boundMs: number;
}

/** Start-to-close of one attempt: what a hang costs. Room for a slow machine, short enough for a test. */
const TIMEOUT_MS = 3_000;
/** What one attempt that is answered (not hung) and its workflow task may take. */
const ATTEMPT_MS = 500;
const RUN_SLACK_MS = 15_000;

/** Temporal's wait before attempt `next` (2, 3, …): the server's retry-after, else 1 s doubling (activity-proxies). */
const backoffMs = (fault: Fault, next: number): number =>
  fault.retryAfterMs ?? Math.min(1_000 * 2 ** (next - 2), 60_000);

/**
 * A seeded storm over one run of 2-3 model calls (a lookup per call, then a final answer):
 * each call meets 0 or more retryable faults before its reply, or a non-retryable fault, or
 * more faults than it has attempts. The run's expected end follows from the first call that
 * fails for good; nothing after it is scripted (the run must not call the model again).
 */
export function planStorm(scenarioSeed: number, index: number): StormPlan {
  const seed = runSeed(scenarioSeed, index);
  const r = seededRandom(seed);
  const stream = r.chance(0.7);
  const maximumAttempts = r.int(2, 4);
  const marker = `storm-${seed}`;
  const answer = `storm answer ${marker}`;
  const callCount = r.int(2, 3);
  const calls: StormCall[] = [];
  const script: ScriptEntry[] = [];
  let expected: StormExpectation = { reason: 'success', answer };
  let boundMs = RUN_SLACK_MS;

  for (let call = 1; call <= callCount && expected.reason === 'success'; call++) {
    const roll = r.next();
    const ending: StormCall['ending'] = roll < 0.12 ? 'fatal' : roll < 0.22 ? 'exhausted' : 'reply';
    const retryable = ending === 'exhausted' ? maximumAttempts : r.int(0, maximumAttempts - 1);
    const faults = Array.from({ length: retryable }, () => retryableFault(r, stream));
    if (ending === 'fatal') faults.push(fatalFault(r, marker));
    calls.push({ faults, ending });
    script.push(...faults.map((f) => f.reply));
    faults.forEach((fault, i) => {
      boundMs +=
        2 *
        ((fault.hangs ? TIMEOUT_MS : ATTEMPT_MS) +
          (i + 1 < maximumAttempts && fault.retryable ? backoffMs(fault, i + 2) : 0));
    });
    if (ending === 'reply') {
      script.push(call < callCount ? toolUse('lookup', { key: `${marker}-${call}` }) : text(answer));
      boundMs += 2 * ATTEMPT_MS;
    } else {
      expected = { reason: 'error', failure: faults[faults.length - 1]! };
    }
  }
  return { index, seed, stream, maximumAttempts, timeoutMs: TIMEOUT_MS, calls, script, expected, boundMs };
}

/** One line per call, printed with every failure so a run can be read without re-running it. */
export function describeStorm(plan: StormPlan): string {
  const calls = plan.calls.map(
    (c, i) =>
      `  call ${i + 1}: ${[...c.faults.map((f) => f.label), c.ending === 'reply' ? 'reply' : c.ending].join(' → ')}`,
  );
  const expected = plan.expected.reason === 'success' ? 'success' : `error (${plan.expected.failure.type})`;
  return [
    `run ${plan.index} seed ${plan.seed} (${plan.stream ? 'streamed' : 'not streamed'}, ${plan.maximumAttempts} attempts per call): expect ${expected}`,
    ...calls,
  ].join('\n');
}
