import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** The line (1-based) of `file` that holds `text`; the test fails unless exactly one does. */
function lineOf(file: string, text: string): number {
  const lines = fs.readFileSync(path.join(__dirname, '../../../src/workflows', file), 'utf8').split('\n');
  const found = lines.flatMap((l, i) => (l.includes(text) ? [i + 1] : []));
  expect(found, `${text} in ${file}`).toHaveLength(1);
  return found[0]!;
}

describe("a run's stack trace", () => {
  // The bundle's source map keeps lines only (WORKFLOW_BUNDLER_OPTIONS): the Web UI's stack
  // trace of a waiting run must still point at the TypeScript line it waits on.
  it('names the source file and line a waiting run waits at', async () => {
    const model = createScriptedModel([
      { content: [useTool('write_file', { path: '/tmp/a.txt', text: 'a' }, 'toolu_s1')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const { observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool([])],
      input: { task: 'Write a file', approvalTimeoutMs: 60_000 },
      during: async ({ h, workflowId }) => {
        await waitForPending(h.agents, workflowId);
        const trace = await h.agents.getHandle(workflowId).query<string>('__stack_trace');
        await h.agents.decide(workflowId, { callId: 'toolu_s1', approved: true, by: { id: 'alice', roles: [] } });
        return trace;
      },
    });
    expect(result.success).toBe(true);
    const waitLine = lineOf('people/approval-gate.ts', 'await condition(() => open().length === 0, timeoutMs);');
    expect(observed).toMatch(new RegExp(`src/workflows/people/approval-gate\\.ts:${waitLine}(:\\d+)?\\)`));
    expect(observed).toMatch(/at runAgent \(\S*src\/workflows\/run\/run-agent\.ts:\d+/);
  }, 60_000);
});
