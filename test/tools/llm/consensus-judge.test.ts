import { describe, expect, it } from 'vitest';
import { createScriptedModel, say } from '../../../src/activities/models/scripted-model';
import { LlmConsensus, MAX_JUDGE_PROBLEM_CHARS, ModelRegistry } from '../../../src/domain';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { toolContext } from '../../helpers/tool-context';

const registry = ModelRegistry.parse({
  models: {
    a: { provider: 'scripted', model: 'a-1' },
    b: { provider: 'scripted', model: 'b-1' },
    judge: { provider: 'judging', model: 'judge-1' },
  },
});
const context = toolContext({ idempotencyKey: 'wf:1' });

/** A consensus of a and b answering in turn from `answers`, judged by `judging`. */
async function consensus(answers: [string, string], judging: ModelProvider): Promise<LlmConsensus> {
  const tool = createLlmTool({
    registry,
    providers: { scripted: createScriptedModel(answers.map((a) => ({ content: [say(a)] }))), judging },
    models: ['a', 'b'],
    consensusJudge: 'judge',
  });
  const out = await tool.execute({ models: ['a', 'b'], mode: 'consensus', prompt: 'Capital of France?' }, context);
  return LlmConsensus.parse(out);
}

describe('the consensus judge (consensusJudge)', () => {
  it('is not asked when the rules leave fewer than two text groups (numbers, or one text)', async () => {
    const never = createScriptedModel([]);
    expect(await consensus(['4', 'four'], never)).toMatchObject({ groups: [['a', 'b']], groupedBy: ['number'] });
    expect(await consensus(['Paris.', 'paris'], never)).not.toHaveProperty('judge');
    never.verify();
  });

  it('keeps its reply within the result’s room, and a failed call keeps the rules’ groups with the reason cut to the limit', async () => {
    const long = createScriptedModel([{ content: [say(`{"groups": [[1, 2]]} ${'x'.repeat(5_000)}`)] }]);
    const merged = await consensus(['Paris is the capital.', 'The capital is Paris.'], long);
    expect(merged).toMatchObject({ agreement: 1, groups: [['a', 'b']], groupedBy: ['judge'] });
    expect(merged.judge && 'answer' in merged.judge ? merged.judge.answer.length : 0).toBe(500);

    const failing: ModelProvider = {
      complete: () => Promise.reject(new Error(`the judge is down: ${'y'.repeat(1_000)}`)),
    } as unknown as ModelProvider;
    const kept = await consensus(['Paris is the capital.', 'The capital is Paris.'], failing);
    expect(kept).toMatchObject({
      agreement: 0.5,
      groups: [['a'], ['b']],
      groupedBy: ['text', 'text'],
      judgeProblem: "the judge's call failed; the rules' groups stand",
    });
    expect(kept.judge).toMatchObject({ model: 'judge-1', alias: 'judge' });
    expect(kept.judge?.error?.length).toBe(MAX_JUDGE_PROBLEM_CHARS);
  });

  it('refuses a grouping that leaves out an answer or names one that is not there', async () => {
    for (const reply of ['{"groups": [[1]]}', '{"groups": [[1, 3]]}', '{"groups": [[1], [2, 2]]}', 'they agree']) {
      const judging = createScriptedModel([{ content: [say(reply)] }]);
      const kept = await consensus(['Paris is the capital.', 'The capital is Paris.'], judging);
      expect(kept.groups).toEqual([['a'], ['b']]);
      expect(kept.judgeProblem).toMatch(/the rules' groups stand$/);
    }
  });
});
