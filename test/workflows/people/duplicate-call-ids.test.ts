import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { thoughts } from '../../helpers/chain-helpers';
import { lastToolResults, waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const alice = { id: 'alice', roles: ['ops'] };

describe('tool calls that share an id', () => {
  it('get ids of their own, so approving the call shown runs only that call', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const shown = { path: '/tmp/a.txt', text: 'shown' };
    const hidden = { path: '/tmp/b.txt', text: 'riding along' };
    const model = createScriptedModel([
      { content: [useTool('write_file', shown, 'call_1'), useTool('write_file', hidden, 'call_1')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const { observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(ran)],
      input: { task: 'Write two files', approvalTimeoutMs: 60_000 },
      during: async ({ h, workflowId }) => {
        const pending = await waitForPending(h.agents, workflowId, 2);
        await h.agents.decide(workflowId, { callId: 'call_1', approved: true, by: alice });
        await h.agents.decide(workflowId, {
          callId: 'call_1#2',
          approved: false,
          by: alice,
          reason: 'not shown to me',
        });
        return pending;
      },
    });
    model.verify();
    expect(observed.map((p) => [p.callId, p.arguments])).toEqual([
      ['call_1', shown],
      ['call_1#2', hidden],
    ]);
    expect(ran).toEqual([shown]);
    expect(result.success).toBe(true);
    expect(thoughts(result.chain.steps).some((t) => t.includes('call_1 → call_1#2'))).toBe(true);
    // The model reads one result per call, under the ids its (renamed) calls carry.
    const answered = lastToolResults(model.calls[1]!.messages).map((r) => [r.toolUseId, r.isError ?? false]);
    expect(answered).toEqual([
      ['call_1', false],
      ['call_1#2', true],
    ]);
  });
});
