import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { createCodeRunTool } from '../../../src/tools/builtin/code';
import { toolResultOf } from '../../helpers/chain-helpers';
import { waitForPending } from '../../helpers/approval-helpers';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { scratchTree } from '../files/file-tools-helpers';

const env = useTestEnv();
const alice = { id: 'alice', roles: ['ops'] };

/** Every byte string in a history, as text: where a value recorded by value would show. */
function historyText(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) for (const v of value) historyText(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) historyText(v, out);
  else if (typeof value === 'string') out.push(value);
  return out;
}

describe('code_run in a run', () => {
  it(
    'each execution waits for approval, is a step of the chain, and its variables outlive continue-as-new by reference only',
    { timeout: 120_000 },
    async () => {
      const tree = scratchTree();
      try {
        const model = createScriptedModel([
          {
            content: [
              useTool(
                'code_run',
                {
                  language: 'javascript',
                  code: 'var big = "Z".repeat(4000) + "-kept-by-reference"; files.write("made.txt", "made"); big.length',
                },
                'call_first',
              ),
            ],
          },
          { content: [useTool('code_run', { language: 'javascript', code: 'big.slice(-18)' }, 'call_second')] },
          { content: [say('done')] },
        ]);
        const h = await createHarness(env, {
          tools: [createCodeRunTool({ root: tree.root })],
          models: { scripted: model },
        });
        const { result, workflowId } = await h.worker.runUntil(async () => {
          const handle = await h.agents.start(scriptedInput('compute', { continueAsNewEvery: 1 }));
          for (const callId of ['call_first', 'call_second']) {
            const [pending] = await waitForPending(h.agents, handle.workflowId);
            expect(pending).toMatchObject({ callId, toolName: 'code_run' });
            expect(fs.existsSync(path.join(tree.root, 'made.txt'))).toBe(callId === 'call_second');
            await h.agents.decide(handle.workflowId, { callId, approved: true, by: alice });
          }
          return { result: await handle.result(), workflowId: handle.workflowId };
        });
        model.verify();
        const steps = result.chain.steps;
        expect(toolResultOf(steps, 'call_first')).toMatchObject({
          success: true,
          result: { ok: true, value: '4018', filesWritten: [{ path: 'made.txt' }], state: { kept: ['big'] } },
        });
        expect(toolResultOf(steps, 'call_second')).toMatchObject({
          success: true,
          result: { value: '-kept-by-reference' },
        });
        const last = await env.client.workflow.getHandle(workflowId).fetchHistory();
        const firstRunId = last.events![0]!.workflowExecutionStartedEventAttributes!.firstExecutionRunId!;
        const first = await env.client.workflow.getHandle(workflowId, firstRunId).fetchHistory();
        expect(first.events!.some((e) => e.workflowExecutionContinuedAsNewEventAttributes)).toBe(true);
        for (const history of [first, last]) expect(historyText(history).join('\n')).not.toContain('ZZZZ');
      } finally {
        tree.cleanup();
      }
    },
  );
});
