import type { EffectAttempt } from '../../test/chaos/lib/fake-external-service';
import type { SoakRun } from './soak-runs';
import type { SoakReport } from './soak-report-types';
import type { SoakWatch } from './soak-watcher';

/**
 * The soak's zero checks over everything it recorded: no run lost, every run ended as its script
 * says, no side effect applied twice, none missing, and every watcher saw each step of its run
 * once and in order. Each failure is said in a line of `problems`.
 */
export interface CheckInput {
  runs: readonly SoakRun[];
  /** Watchers of the pool of fifty, besides each run's own. */
  poolWatches: readonly SoakWatch[];
  attempts: readonly EffectAttempt[];
}

/** A tool call's run: its idempotency key is `<workflow id>:<step id>`. */
const workflowOf = (key: string) => key.slice(0, key.lastIndexOf(':'));

/**
 * Runs that applied effects though the soak never started them (nor are they a sub-agent of one,
 * `<parent id>/<agent>-<n>`): a start answered on one instance and made again on the other.
 */
function strangerRuns(input: CheckInput, problems: string[]): number {
  const known = new Set(input.runs.flatMap((r) => (r.runId ? [r.runId] : [])));
  const strangers = new Set(
    input.attempts.map((a) => workflowOf(a.key)).filter((id) => !known.has(id) && !known.has(id.split('/')[0]!)),
  );
  for (const id of [...strangers].slice(0, 20))
    problems.push(`${id} applied side effects, but the soak never started it`);
  return strangers.size;
}

function effectChecks(input: CheckInput, problems: string[]): { duplicateEffects: number; missingEffects: number } {
  // Applied effects by run and step: the service applies a key once, so a second one is a repeated call.
  const applied = new Map<string, number>();
  for (const a of input.attempts.filter((x) => x.applied)) {
    const id = `${workflowOf(a.key)}#${String(a.args['step'])}`;
    applied.set(id, (applied.get(id) ?? 0) + 1);
  }
  const duplicates = [...applied].filter(([, n]) => n > 1);
  for (const [id, n] of duplicates.slice(0, 20)) problems.push(`side effect ${id} applied ${n} times`);
  // Each finished run's steps by label (a team's by its sub-agent's label): all applied.
  const byLabel = new Map<string, Set<number>>();
  for (const a of input.attempts.filter((x) => x.applied)) {
    const label = String(a.args['run']);
    byLabel.set(label, (byLabel.get(label) ?? new Set()).add(Number(a.args['step'])));
  }
  let missing = 0;
  for (const run of input.runs.filter(
    (r) => r.ending === 'finished' && r.kind !== 'scheduled' && r.kind !== 'triggered',
  )) {
    const label = run.kind === 'team' ? `${run.label}c` : run.label;
    const steps = byLabel.get(label)?.size ?? 0;
    const expected = run.stepsExpected ?? 0;
    if (steps < expected) {
      missing += expected - steps;
      const applied = [...(byLabel.get(label) ?? [])].sort((a, b) => a - b).join(',');
      problems.push(
        `${run.label} (${run.runId}) finished with ${steps} of its ${expected} side effects applied: steps [${applied}]`,
      );
    }
  }
  return { duplicateEffects: duplicates.reduce((n, [, k]) => n + k - 1, 0), missingEffects: missing };
}

function watchChecks(input: CheckInput, problems: string[]): { missed: number; repeated: number; followed: number } {
  const chains = new Map(input.runs.filter((r) => r.runId && r.chainSteps).map((r) => [r.runId!, r.chainSteps!]));
  const watches = [...input.runs.flatMap((r) => (r.watch ? [r.watch] : [])), ...input.poolWatches];
  let missed = 0;
  let repeated = 0;
  let followed = 0;
  for (const w of watches) {
    const chain = chains.get(w.runId);
    if (!chain) continue;
    followed += 1;
    if (w.failure) problems.push(`a watcher of ${w.runId} gave up: ${w.failure}`);
    const seen = new Set(w.steps);
    const miss = chain.filter((s) => !seen.has(s)).length;
    const repeat = w.steps.length - seen.size;
    const outOfOrder = w.steps.some((s, i) => i > 0 && s <= w.steps[i - 1]!);
    if (miss + repeat > 0 || outOfOrder)
      problems.push(
        `a watcher of ${w.runId} saw steps [${w.steps.join(',')}] of [${chain.join(',')}]` +
          `${w.ending ? '' : ' and no end'}`,
      );
    missed += miss;
    repeated += repeat;
  }
  return { missed, repeated, followed };
}

export function soakChecks(input: CheckInput): { totals: SoakReport['totals']; problems: string[] } {
  const problems: string[] = [];
  const ended: SoakReport['totals']['ended'] = {};
  for (const r of input.runs) if (r.ending) ended[r.ending] = (ended[r.ending] ?? 0) + 1;
  const lost = input.runs.filter((r) => r.ending === undefined);
  for (const r of lost.slice(0, 20))
    problems.push(`${r.label} (${r.runId ?? 'never started'}) lost: ${r.problem ?? 'no ending'}`);
  const unexpected = input.runs.filter((r) => r.ending !== undefined && r.problem !== undefined);
  for (const r of unexpected.slice(0, 20)) problems.push(`${r.label} (${r.runId}): ${r.problem}`);
  const effects = effectChecks(input, problems);
  const watches = watchChecks(input, problems);
  return {
    totals: {
      started: input.runs.filter((r) => r.runId).length,
      ended,
      lost: lost.length,
      unexpectedEndings: unexpected.length,
      ...effects,
      strangerRuns: strangerRuns(input, problems),
      watcherMissed: watches.missed,
      watcherRepeated: watches.repeated,
      watchersFollowed: watches.followed,
    },
    problems,
  };
}
