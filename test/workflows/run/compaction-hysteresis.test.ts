import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { COMPACT_TO_SHARE } from '../../../src/workflows/loop/fit-context';
import { defineTool } from '../../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const LIMIT = 4_000;
const CALLS = 24;

describe('compaction without a summary', () => {
  it('cuts the conversation well under the limit, so the calls after it send the same beginning and compactions are rare', async () => {
    const sent: string[][] = [];
    const turns: ScriptedTurn[] = Array.from({ length: CALLS }, (_, i) => ({
      content: (request) => {
        sent.push(request.messages.map((m) => JSON.stringify(m)));
        return [useTool('read', { n: i + 1 })];
      },
    }));
    turns.push({ content: [useTool('finish', { result: 'read' })] });
    const read = defineTool({
      name: 'read',
      description: 'Returns part n',
      input: z.object({ n: z.number().int() }),
      execute: ({ n }) => `part ${n}: ${'y'.repeat(400)}`,
    });
    const h = await createHarness(env, { tools: [read], models: { scripted: createScriptedModel(turns) } });
    const chain = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Read every part',
        model: SCRIPTED_MODEL,
        maxContextChars: LIMIT,
        maxIterations: CALLS + 2,
      });
      await handle.result();
      return h.agents.chain(handle.workflowId, 'auditor');
    });

    const compactions = chain.steps.filter((s) => s.type === 'thinking' && s.purpose === 'compaction');
    const firstCut = sent.findIndex((m, i) => i > 0 && m[1] !== sent[i - 1]![1]);
    expect(firstCut).toBeGreaterThan(0);
    const past = sent.slice(firstCut);
    // Every call fits; a cut leaves room for more than one iteration before the next.
    for (const messages of past) expect(`[${messages.join(',')}]`.length).toBeLessThanOrEqual(LIMIT);
    expect(compactions.length).toBeGreaterThan(1);
    expect(compactions.length).toBeLessThanOrEqual(Math.ceil(past.length / 2));
    // Right after a cut the conversation is at most the target share of the limit.
    expect(`[${past[0]!.join(',')}]`.length).toBeLessThanOrEqual(LIMIT * COMPACT_TO_SHARE);
  });
});
