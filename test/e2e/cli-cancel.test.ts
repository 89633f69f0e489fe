import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import { cliEnv, spawnCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('thoughtline cancel', () => {
  it('signals a running agent, which finishes its step, summarises, and returns `cancelled` with the reason in its chain', async () => {
    let started = false;
    // The job ends only once the CLI has sent its signal, however long the CLI takes to start.
    let finishJob: () => void = () => undefined;
    const jobMayFinish = new Promise<void>((resolve) => (finishJob = resolve));
    const slow = defineTool({
      name: 'slow_job',
      description: 'Takes a while',
      input: z.object({}),
      execute: async () => {
        started = true;
        await jobMayFinish;
        return 'job done';
      },
    });
    const model = createScriptedModel([
      { content: [useTool('slow_job', {})] },
      { content: [say('Summary: the job finished; stopped on request.')] },
    ]);
    const h = await createHarness(env, { tools: [slow], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Run the job', model: SCRIPTED_MODEL, cancelGraceMs: 10_000 });
      while (!started) await new Promise((r) => setTimeout(r, 25));
      const cli = spawnCli(['cancel', handle.workflowId, '--reason', 'release frozen'], cliEnv({}));
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain(`Cancel signal sent for ${handle.workflowId}`);
      finishJob();
      return handle.result();
    });
    model.verify();
    expect(result).toMatchObject({
      terminationReason: 'cancelled',
      finalAnswer: 'Summary: the job finished; stopped on request.',
      toolCalls: 1,
    });
    expect(result.chain.steps.some((s) => s.type === 'thinking' && s.thought.includes('release frozen'))).toBe(true);
  });
});
