import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AgentClient } from '../src/client/agent-client';
import { createScriptedModel, say, useTool } from '../src/activities/models/scripted-model';
import { defineTool } from '../src/tools/define-tool';
import { cancelSignal } from '../src/workflows/messages';
import { createAgentWorker } from '../src/worker';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { summarise } from './lib/stats';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Figure 13: cancelling a run while its tool works (a 20 s job that honours its abort signal),
 * from the request (the `cancel` signal, or Temporal's cancellation) to the returned `cancelled`
 * result, p50 and p95 of `BENCH_CANCEL_RUNS` runs each (10; 2 at smoke sizes). The target (seed 002:
 * under 2 s) lives here, not in a timed test: the tests assert only that the run did not wait for
 * the job.
 */
export async function measureCancellation(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const runs = config.cancel.runs;
  const taskQueue = `bench-cancel-${randomUUID()}`;
  const rows: Measurement[] = [];
  const errors: string[] = [];
  const samples: Record<string, number[]> = { signal: [], temporal: [] };
  let started = 0;
  const slowJob = defineTool({
    name: 'slow_job',
    description: 'A long job',
    input: z.object({}),
    retry: { maximumAttempts: 1 },
    timeoutMs: 60_000,
    execute: (_args, { signal }) =>
      new Promise<string>((resolve, reject) => {
        started += 1;
        const timer = setTimeout(() => resolve('done'), 20_000);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
      }),
  });
  const turns = Array.from({ length: runs * 2 }, () => ({
    content: [say('Starting the long job.'), useTool('slow_job', {})],
  }));
  try {
    const worker = await createAgentWorker({
      connection: ctx.nativeConnection,
      namespace: ctx.server.namespace,
      taskQueue,
      tools: [slowJob],
      models: { scripted: createScriptedModel(turns) },
      workflowBundle: { codePath: ctx.bundlePath },
    });
    await worker.runUntil(async () => {
      const agents = new AgentClient({ client: ctx.client, taskQueue });
      for (let i = 0; i < runs; i++)
        for (const how of ['signal', 'temporal'] as const) {
          try {
            const before = started;
            const handle = await agents.start({
              task: 'Do the long job',
              model: { provider: 'scripted', model: 'scripted-model' },
              maxIterations: 3,
            });
            const deadline = Date.now() + 30_000;
            while (started === before) {
              if (Date.now() > deadline) throw new Error('the tool never started');
              await wait(10);
            }
            await wait(200);
            const t0 = performance.now();
            if (how === 'signal') await handle.signal(cancelSignal, { reason: 'bench' });
            else await handle.cancel();
            const result = await handle.result();
            if (result.terminationReason !== 'cancelled') throw new Error(`ended ${result.terminationReason}`);
            samples[how]!.push(performance.now() - t0);
          } catch (err) {
            errors.push(`${how} #${i + 1}: ${errorText(err)}`);
          }
        }
    });
  } catch (err) {
    errors.push(errorText(err));
  }
  for (const how of ['signal', 'temporal'] as const) {
    const s = summarise(samples[how]!);
    const name = how === 'signal' ? 'by the cancel signal (500 ms grace)' : "by Temporal's cancellation";
    rows.push(measurement(`${name}: p50`, s.p50, 'ms'));
    rows.push(measurement(`${name}: p95`, s.p95, 'ms', { target: { op: '<', value: 2_000 }, note: `${s.n} runs` }));
  }
  return { measurements: rows, errors, details: { runs, samples } };
}
