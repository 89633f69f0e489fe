import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { scriptedInput } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/**
 * A fork must not run a write again on the strength of the original's approval (issue 43). The
 * scripted model makes the fork's write call with the very call id the original's approval named,
 * which a gate keyed by call id alone would take as decided. Real worker, real dev server.
 */
describe('fork and approvals', () => {
  it(
    "a fork that makes the original's approved write again, with the same call id, waits for a new approval and writes nothing until then",
    { timeout: 90_000 },
    async () => {
      const ran: Array<Record<string, unknown>> = [];
      const write = useTool('write_file', { path: 'payroll.csv', text: 'pay everyone twice' }, 'call_write');
      const finish = useTool('finish', { result: 'Written.' });
      // The original's two replies, then the fork's two: the fork repeats the write, same id and all.
      const model = createScriptedModel([
        { content: [write] },
        { content: [finish] },
        { content: [write] },
        { content: [finish] },
      ]);
      const h = await createHarness(env, { tools: [writeFileTool(ran)], models: { scripted: model } });
      await h.worker.runUntil(async () => {
        const original = await h.agents.start(scriptedInput('Write the payroll file'));
        await waitForPending(h.agents, original.workflowId);
        await h.agents.decide(original.workflowId, {
          callId: 'call_write',
          approved: true,
          by: { id: 'alice', roles: [] },
        });
        expect((await original.result()).terminationReason).toBe('success');
        expect(ran).toHaveLength(1);

        const dry = await h.agents.planFork(original.workflowId, { atStep: 0 });
        expect(dry.start.hazards.map((x) => [x.toolName, x.approval])).toEqual([['write_file', 'always']]);

        const { handle: forked } = await h.agents.fork(original.workflowId, {
          atStep: 0,
          caller: { id: 'mallory', roles: [] },
        });
        const [pending] = await waitForPending(h.agents, forked.workflowId);
        expect(pending).toMatchObject({ callId: 'call_write', status: 'pending' });
        // Waiting, not written: the original's approval did not carry over.
        expect(ran).toHaveLength(1);
        await h.agents.decide(forked.workflowId, {
          callId: 'call_write',
          approved: false,
          reason: 'not again',
          by: { id: 'alice', roles: [] },
        });
        const result = await forked.result();
        expect(result.terminationReason).toBe('success');
        expect(ran).toHaveLength(1);
      });
      model.verify();
    },
  );
});
