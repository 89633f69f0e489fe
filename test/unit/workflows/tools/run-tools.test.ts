import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentInput, FailureType } from '../../../../src/domain';
import { defineTool } from '../../../../src/tools/define-tool';
import { toToolSpec } from '../../../../src/tools/tool-registry';
import { RunTools } from '../../../../src/workflows/tools/run-tools';

const spec = (name: string) =>
  toToolSpec(defineTool({ name, description: name, input: z.object({ q: z.string() }), execute: () => 'ok' }));
const input = (extra: Record<string, unknown> = {}) =>
  AgentInput.parse({ task: 't', model: { provider: 'scripted', model: 'm' }, ...extra });
const call = (name: string, q: unknown = 'x') => ({ type: 'tool_use' as const, id: 'c1', name, input: { q } });

describe('a run’s tool set (RunTools)', () => {
  it('is pending until the first reply describes the registered tools, then complete and checked against', () => {
    const run = input({ agents: { helper: { description: 'helps' } } });
    const tools = RunTools.describedByFirstCall(run, ['search'], ['helper']);
    expect(tools.pending).toEqual({ names: ['search'] });
    // Until then only the run's own tools are known: a call of a registered one is not valid yet.
    expect(tools.specs.map((t) => t.name)).toEqual(['helper']);
    expect(tools.validate(call('search')).ok).toBe(false);
    tools.described([spec('search')]);
    expect(tools.pending).toBeUndefined();
    expect(tools.specs.map((t) => t.name)).toEqual(['search', 'helper']);
    expect(tools.validate(call('search'))).toMatchObject({ ok: true, args: { q: 'x' } });
    expect(tools.validate(call('search', 3)).ok).toBe(false);
  });

  it('asks for every registered tool when the run names none, and for none when it names an empty list', () => {
    expect(RunTools.describedByFirstCall(input(), undefined, []).pending).toEqual({});
    expect(RunTools.describedByFirstCall(input(), [], []).pending).toBeUndefined();
  });

  it('keeps a known set as it is: a later reply’s specs change nothing', () => {
    const tools = RunTools.known(input(), [spec('a')]);
    tools.described([spec('b')]);
    expect(tools.specs.map((t) => t.name)).toEqual(['a']);
  });

  it('refuses, as a bad input, a registered tool named like an injected tool, when described', () => {
    const tools = RunTools.describedByFirstCall(input({ finishToolName: 'lookup' }), undefined, []);
    const err = (() => {
      try {
        tools.described([spec('lookup')]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureType.InvalidAgentInput);
    expect((err as Error).message).toContain('set finishToolName to another name');
  });
});
