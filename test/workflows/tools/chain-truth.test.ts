import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { FailureType } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolError } from '../../../src/tools/tool-error';
import { cancelSignal } from '../../../src/workflows/messages';
import { toolResultOfTool } from '../../helpers/chain-helpers';
import { waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Issue 15, item 9: what the chain says about retries, refusals and calls that never ran. */
describe('the chain tells the truth about tool calls', () => {
  it('a call still waiting for approval when the run is cancelled is recorded as never run', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      { content: [say('Writing the file.'), useTool('write_file', { path: '/tmp/x', text: 'hi' }, 'toolu_w')] },
    ]);
    const h = await createHarness(env, { tools: [writeFileTool(ran)], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('write it', { cancelGraceMs: 0 }));
      await waitForPending(h.agents, handle.workflowId);
      await handle.signal(cancelSignal, { reason: 'changed my mind', by: 'alice' });
      return handle.result();
    });
    expect(ran).toEqual([]);
    expect(result.terminationReason).toBe('cancelled');
    const written = toolResultOfTool(result.chain.steps, 'write_file');
    expect(written).toMatchObject({
      success: false,
      outcome: 'not_run',
      error: expect.stringMatching(/^Never ran: the call was still waiting for approval/),
    });
    expect(written?.error).not.toContain('may or may not');
  });

  it('a call that succeeds on its third attempt says so, and its time covers the retries', async () => {
    let runs = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails twice, then works',
      input: z.object({}),
      effects: 'none',
      retry: { maximumAttempts: 3, initialIntervalMs: 300, backoffCoefficient: 1 },
      execute: () => {
        runs += 1;
        if (runs < 3) throw new Error(`transient failure ${runs}`);
        return 'ok';
      },
    });
    const model = createScriptedModel([{ content: [useTool('flaky', {})] }, { content: [say('done')] }]);
    const h = await createHarness(env, { tools: [flaky], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => (await h.agents.start(scriptedInput('flaky'))).result());
    expect(runs).toBe(3);
    const observation = toolResultOfTool(result.chain.steps, 'flaky');
    expect(observation).toMatchObject({ success: true, attempts: 3 });
    // Two waits of 300 ms between the attempts.
    expect(observation!.durationMs).toBeGreaterThanOrEqual(600);
  });

  it('a call that fails every attempt records the attempts and the time they took', async () => {
    let runs = 0;
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails',
      input: z.object({}),
      retry: { maximumAttempts: 3, initialIntervalMs: 300, backoffCoefficient: 1 },
      execute: () => {
        runs += 1;
        throw new Error('still down');
      },
    });
    const model = createScriptedModel([{ content: [useTool('broken', {})] }, { content: [say('gave up')] }]);
    const h = await createHarness(env, { tools: [broken], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => (await h.agents.start(scriptedInput('broken'))).result());
    expect(runs).toBe(3);
    const observation = toolResultOfTool(result.chain.steps, 'broken');
    expect(observation).toMatchObject({ success: false, attempts: 3, error: expect.stringContaining('still down') });
    expect(observation!.durationMs).toBeGreaterThanOrEqual(600);
  });

  it('a ToolError with retryable: false runs once and the model reads its message', async () => {
    let runs = 0;
    const refuse = defineTool({
      name: 'transfer',
      description: 'Refuses transfers above the limit',
      input: z.object({ amount: z.number() }),
      approval: 'never',
      retry: { maximumAttempts: 3, initialIntervalMs: 10 },
      execute: ({ amount }) => {
        runs += 1;
        throw new ToolError(`Transfers above 100 are not allowed; ${amount} asked.`, { retryable: false });
      },
    });
    const seen: string[] = [];
    const script = createScriptedModel([
      { content: [useTool('transfer', { amount: 500 })] },
      { content: [say('Refused, as expected.')] },
    ]);
    const model = {
      ...script,
      complete: (
        request: Parameters<typeof script.complete>[0],
        signal: AbortSignal,
        hooks?: Parameters<typeof script.complete>[2],
      ) => {
        seen.push(JSON.stringify(request.messages.at(-1)));
        return script.complete(request, signal, hooks);
      },
    };
    const h = await createHarness(env, { tools: [refuse], models: { scripted: model } });
    const result = await h.worker.runUntil(async () => (await h.agents.start(scriptedInput('transfer 500'))).result());
    expect(runs).toBe(1);
    const observation = toolResultOfTool(result.chain.steps, 'transfer');
    expect(observation).toMatchObject({
      success: false,
      attempts: 1,
      error: expect.stringContaining(`${FailureType.ToolRefused}: Transfers above 100 are not allowed; 500 asked.`),
    });
    expect(seen.at(-1)).toContain('Transfers above 100 are not allowed; 500 asked.');
    expect(seen.at(-1)).toContain('"isError":true');
  });
});
