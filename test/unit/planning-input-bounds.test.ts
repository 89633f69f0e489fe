import { describe, expect, it } from 'vitest';
import {
  AgentInput,
  MAX_CACHE_TTL_MS,
  MAX_CACHED_TOOLS,
  MAX_WORKFLOW_STEP_TOOLS,
  MAX_WORKFLOW_STEPS,
  MAX_WORKFLOW_TEXT_CHARS,
  RunCacheSettings,
  WorkflowTemplate,
  workflowGraphProblems,
} from '../../src/domain';

/** The bounds of issue 49's new inputs that live in their schemas: at the limit accepted, one past refused. */
const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `s${i}`, description: `step ${i}`, after: i > 0 ? [`s${i - 1}`] : [] }));

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('workflow templates', () => {
  it(`take ${MAX_WORKFLOW_STEPS} steps and refuse one more`, () => {
    expect(WorkflowTemplate.safeParse({ name: 'w', steps: steps(MAX_WORKFLOW_STEPS) }).success).toBe(true);
    expect(WorkflowTemplate.safeParse({ name: 'w', steps: steps(MAX_WORKFLOW_STEPS + 1) }).success).toBe(false);
  });

  it(`take ${MAX_WORKFLOW_STEP_TOOLS} tools a step and descriptions of ${MAX_WORKFLOW_TEXT_CHARS} characters, and refuse more`, () => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => `tool_${i}`);
    const step = (toolCount: number, chars: number) => ({
      name: 'w',
      steps: [{ id: 'a', description: 'd'.repeat(chars), tools: tools(toolCount) }],
    });
    expect(WorkflowTemplate.safeParse(step(MAX_WORKFLOW_STEP_TOOLS, MAX_WORKFLOW_TEXT_CHARS)).success).toBe(true);
    expect(WorkflowTemplate.safeParse(step(MAX_WORKFLOW_STEP_TOOLS + 1, 10)).success).toBe(false);
    expect(WorkflowTemplate.safeParse(step(1, MAX_WORKFLOW_TEXT_CHARS + 1)).success).toBe(false);
  });

  it('refuse unknown fields, bad ids, and a graph they cannot follow, naming each problem', () => {
    expect(WorkflowTemplate.safeParse({ name: 'w', steps: [{ id: 'a', description: 'x', when: 'now' }] }).success).toBe(
      false,
    );
    expect(messages(WorkflowTemplate.safeParse({ name: 'w', steps: [{ id: '1a', description: 'x' }] }))[0]).toContain(
      'A step id is a name',
    );
    expect(
      workflowGraphProblems([{ id: 'a', after: ['a'] }, { id: 'b', after: ['zz'] }, { id: 'b' }]).map((p) => p.message),
    ).toEqual([
      'Step id "b" is used twice (first by step 2).',
      'Step "a" depends on itself.',
      'Step "b" depends on "zz", which is not a step of this workflow (steps: a, b).',
    ]);
    const cycle = workflowGraphProblems([
      { id: 'a', after: ['c'] },
      { id: 'b', after: ['a'] },
      { id: 'c', after: ['b'] },
    ]);
    expect(cycle).toEqual([
      { index: 0, path: ['after'], message: 'The steps depend on each other in a cycle: a → c → b → a.' },
    ]);
    // A long chain is no cycle, and checking it does not recurse.
    expect(
      workflowGraphProblems(Array.from({ length: 5_000 }, (_, i) => ({ id: `s${i}`, after: i ? [`s${i - 1}`] : [] }))),
    ).toEqual([]);
  });

  it('reach a run only through AgentInput, which refuses one that cannot be followed', () => {
    const input = (workflow: unknown) => AgentInput.safeParse({ task: 't', planning: { workflow } });
    expect(input({ name: 'w', steps: steps(3) }).success).toBe(true);
    expect(input({ name: 'w', steps: [{ id: 'a', description: 'x', after: ['b'] }] }).success).toBe(false);
  });
});

describe('run cache settings', () => {
  it(`take a time-to-live of up to ${MAX_CACHE_TTL_MS} ms and ${MAX_CACHED_TOOLS} tools, and refuse more`, () => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => `tool_${i}`);
    expect(RunCacheSettings.safeParse({ ttlMs: MAX_CACHE_TTL_MS, tools: tools(MAX_CACHED_TOOLS) }).success).toBe(true);
    expect(RunCacheSettings.safeParse({ ttlMs: MAX_CACHE_TTL_MS + 1 }).success).toBe(false);
    expect(RunCacheSettings.safeParse({ tools: tools(MAX_CACHED_TOOLS + 1) }).success).toBe(false);
    expect(RunCacheSettings.safeParse({ ttlMs: 0 }).success).toBe(false);
  });
});
