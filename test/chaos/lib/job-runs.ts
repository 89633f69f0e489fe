import type { AgentInputInit } from '../../../src/domain';
import { toolUse, type FakeReply, type FakeRequestBody, type ScriptEntry } from '../../../src/testing';

/**
 * Runs that call `slow_job` (chaos-tools-module.ts) once a turn for a number of steps, then
 * finish: the shape of the failover tests. The task names the run and its steps, so one stateless
 * fake Messages script entry answers every run on every worker, and any retry of a model call.
 */
const TASK = /job run (\S+) of (\d+) steps/;

export const jobRunInput = (label: string, steps: number): AgentInputInit => ({
  task: `job run ${label} of ${steps} steps`,
  tools: ['slow_job'],
  maxIterations: steps + 2,
  model: { provider: 'anthropic', model: 'claude-sonnet-4-6', maximumAttempts: 20 },
});

/** Answers turn t of a run with `slow_job { run, step: t }`, and the turn after its last step with `finish`. */
export function jobRunModel({ replyDelayMs = 0 }: { replyDelayMs?: number } = {}): ScriptEntry {
  return (body: FakeRequestBody): FakeReply => {
    const found = TASK.exec(JSON.stringify(body.messages[0] ?? ''));
    if (!found) throw new Error(`not a job run: ${JSON.stringify(body.messages[0]).slice(0, 200)}`);
    const [, run, steps] = found;
    const turn = body.messages.filter((m) => m.role === 'assistant').length;
    const options = { delayMs: replyDelayMs, id: `toolu_${run!.replace(/\W/g, '_')}_${turn}` };
    return turn < Number(steps)
      ? toolUse('slow_job', { run: run!, step: turn }, { ...options, text: `Step ${turn} of ${run} is next.` })
      : toolUse('finish', { result: `${run} done` }, options);
  };
}

/** Enough entries for any number of runs: the server consumes one per request. */
export const jobRunScript = (entry: ScriptEntry): ScriptEntry[] => Array.from({ length: 10_000 }, () => entry);
