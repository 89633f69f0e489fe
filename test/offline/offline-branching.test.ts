import { describe, expect, it } from 'vitest';
import { BranchingSettings } from '../../src/domain';
import { offlineContent } from '../../src/offline/offline-model';
import { branchJudgePrompt, branchJudgeSystem } from '../../src/workflows/branching/branch-judge-prompt';
import { branchTask, branchingSpec } from '../../src/workflows/branching/branch-tool';
import { toModelTool } from '../../src/domain/tools/offered-tool';
import { readPlanReply } from '../../src/workflows/planning/plans/plan-reply';
import { calls, request, tool, turn } from '../helpers/offline-request';

const READ = tool('files_read', 'Read a file', { path: { type: 'string' } });
const SEARCH = tool('files_search', 'Search the files for text', { query: { type: 'string' } });
const LIST = tool('files_list', 'List the files', { path: { type: 'string' } });
const branching = (maxBranches: number) => toModelTool(branchingSpec(BranchingSettings.parse({ maxBranches })));
const TASK = 'Search the files and read and list them';

describe('the offline model and the branching tool (src/offline/branch-move.ts)', () => {
  it('branches one approach per fitting tool, as many as the tool takes', () => {
    expect(calls(offlineContent(request(TASK, [READ, SEARCH, LIST, branching(2)])))).toEqual([
      {
        name: 'explore_branches',
        input: {
          approaches: [
            { label: expect.any(String), instructions: expect.stringMatching(/^Start with the files_\w+ tool\.$/) },
            { label: expect.any(String), instructions: expect.stringMatching(/^Start with the files_\w+ tool\.$/) },
          ],
          criteria: 'The answer backed by the most tool results.',
        },
      },
    ]);
    // One fitting tool: nothing to compare, so it calls the tool itself.
    expect(calls(offlineContent(request('Read the file', [READ, branching(3)])))[0]!.name).toBe('files_read');
  });

  it("a branch's run keeps to its approach's tool, and reads the task without the branch's preamble", () => {
    const task = branchTask(
      TASK,
      ['an earlier result'],
      { label: 'search', instructions: 'Start with the files_search tool.' },
      2,
      2,
    );
    const made = calls(offlineContent(request(task, [READ, SEARCH, LIST])));
    expect(made.map((c) => c.name)).toEqual(['files_search']);
    expect(JSON.stringify(made[0]!.input)).not.toContain('You are branch');
  });

  it('finishes with the chosen branch’s answer once the branches come back', () => {
    const result =
      'Branch 2 "b" was chosen: it is grounded.\nIts answer: auth.py rejects "!" in passwords.\nThe other branches: branch 1 “a”: failed (failure).';
    const reply = offlineContent(
      request(TASK, [READ, SEARCH, branching(2)], turn('b1', 'explore_branches', {}, result)),
    );
    expect(calls(reply)).toEqual([{ name: 'finish', input: { result: 'auth.py rejects "!" in passwords.' } }]);
  });

  it('as the judge, picks the first grounded answer, else the first listed', () => {
    const branch = (index: number, grounding: string) => ({
      mark: { group: 'c', index, label: `way ${index}` },
      answer: `answer ${index}`,
      grounding,
      costUsd: 0,
      iterations: 1,
    });
    const judge = (...finished: ReturnType<typeof branch>[]) => {
      const text = offlineContent({
        ...request('x', []),
        system: branchJudgeSystem(),
        tools: [],
        toolChoice: 'none',
        messages: [{ role: 'user', content: [{ type: 'text', text: branchJudgePrompt('t', '', finished) }] }],
      });
      return readPlanReply((text[0] as { text: string }).text) as { winner: number; reason: string };
    };
    expect(judge(branch(1, 'ungrounded'), branch(3, 'grounded')).winner).toBe(3);
    expect(judge(branch(2, 'partly_grounded'), branch(3, 'ungrounded'))).toMatchObject({
      winner: 2,
      reason: expect.stringContaining('no answer is fully grounded'),
    });
  });
});
