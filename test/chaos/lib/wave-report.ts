import { describeKillPoint } from './chaos-model';
import type { WaveOutcome } from './kill-wave';

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** A wave in a few lines: what each run planned, when it finished, and every kill asked for, in seconds from its start. */
export function waveReport(wave: WaveOutcome): string {
  const began = wave.origin;
  const planned = wave.runs.reduce((n, r) => n + r.plan.turns.length, 0);
  const deduplicated = wave.service.attempts.filter((a) => !a.applied).length;
  const kills = [
    ...wave.relay.kills.map((k) => ({ ...k, what: 'killed' })),
    ...wave.relay.covered.map((k) => ({ ...k, what: 'already dying or gone:' })),
  ].sort((a, b) => a.at - b.at);
  return [
    `${wave.runs.length} runs, ${wave.relay.kills.length} kills, ${wave.model.requests.length - planned} model calls asked again, ` +
      `${deduplicated} side effects deduplicated, ${seconds(performance.now() - began)} s`,
    ...wave.runs.map(
      (r) =>
        `  ${r.plan.label}: ${r.plan.turns.length} turns, to be killed ${describeKillPoint(r.plan)}; done at +${seconds(r.finishedAt - began)} s`,
    ),
    ...kills.map((k) => `  +${seconds(k.at - began)} s: ${k.what} worker ${k.generation} for ${k.reason}`),
  ].join('\n');
}
