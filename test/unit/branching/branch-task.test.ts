import { describe, expect, it } from 'vitest';
import { BranchingSettings, MAX_BRANCH_CONTEXT_CHARS } from '../../../src/domain';
import { MAX_TASK_BYTES, utf8Bytes } from '../../../src/domain/run/payload-size';
import { branchTask, readBranchCall } from '../../../src/workflows/branching/branch-tool';

const approach = { label: 'search', instructions: 'Start with the search.' };

describe("a branch's task (branch-tool.ts)", () => {
  it('keeps the newest results up to the context bound, oldest cut first', () => {
    const known = ['old '.repeat(2_000), 'newer result', 'newest result'];
    const task = branchTask('Find it', known, approach, 2, 3);
    expect(task.startsWith('Find it\n')).toBe(true);
    expect(task).toContain('- newer result\n- newest result');
    expect(task).toContain('You are branch 2 of 3, each trying a different approach. Yours: "search".');
    const context = task.slice(task.indexOf('What has been found'), task.indexOf('You are branch'));
    expect(context.length).toBeLessThan(MAX_BRANCH_CONTEXT_CHARS + 200);
  });

  it('stays within the task bound for a task at the limit, ASCII or not, cutting the task and keeping the approach', () => {
    for (const unit of ['a', 'é', '😀']) {
      const whole = unit.repeat(Math.floor(MAX_TASK_BYTES / utf8Bytes(unit)));
      expect(utf8Bytes(whole)).toBeLessThanOrEqual(MAX_TASK_BYTES);
      const task = branchTask(whole, ['x'.repeat(MAX_BRANCH_CONTEXT_CHARS)], approach, 1, 2);
      expect(utf8Bytes(task)).toBeLessThanOrEqual(MAX_TASK_BYTES);
      expect(task).toContain(' […]\n');
      expect(task.endsWith('rather than switching to another.')).toBe(true);
    }
  });

  it('reads a call defensively: strings only, cut to their bounds, at most maxBranches', () => {
    const max = BranchingSettings.parse({}).maxBranches;
    const read = readBranchCall(
      {
        approaches: [
          { label: ' a ', instructions: 'x'.repeat(5_000) },
          { label: 7, instructions: 'not a label' },
          null,
          { label: '', instructions: 'unnamed' },
          { label: 'c', instructions: 'c' },
          { label: 'd', instructions: 'd' },
        ],
        criteria: 42,
      },
      max,
    );
    expect(read.approaches.map((a) => a.label)).toEqual(['a']);
    expect(read.approaches[0]!.instructions).toHaveLength(2_000);
    expect(read.criteria).toBe('');
    expect(readBranchCall({ approaches: 'no' }, max)).toEqual({ approaches: [], criteria: '' });
  });
});
