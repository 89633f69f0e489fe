import { describe, expect, it } from 'vitest';
import { createAgentActivities } from '../../../src/agents/agent-activities';
import { createAgentRegistry } from '../../../src/agents/agent-registry';
import type { ToolSpec } from '../../../src/domain';

const agent = (id: string, tools?: string[]) => ({
  id,
  description: 'd',
  version: '1.0.0',
  systemPrompt: 'p',
  ...(tools ? { tools } : {}),
});

/** describeTools as a spy: what it was asked for, answered with one stub spec per name. */
function describeSpy() {
  const asked: Array<string[] | undefined> = [];
  const describeTools = async (names?: string[]): Promise<ToolSpec[]> => {
    asked.push(names);
    return (names ?? ['everything']).map((name) => ({ name }) as ToolSpec);
  };
  return { asked, describeTools };
}

describe('describeAgent', () => {
  it('answers the definition with the specs of its registered tools, leaving catalogue agents to the run', async () => {
    const spy = describeSpy();
    const { describeAgent } = createAgentActivities({
      agents: createAgentRegistry([agent('researcher', ['lookup', 'helper'])]),
      describeTools: spy.describeTools,
    });
    const answer = await describeAgent('researcher', ['helper']);
    expect(answer).toMatchObject({ found: true, definition: { id: 'researcher', tools: ['lookup', 'helper'] } });
    expect(spy.asked).toEqual([['lookup']]);
  });

  it('describes every registered tool for a definition that names none', async () => {
    const spy = describeSpy();
    const { describeAgent } = createAgentActivities({
      agents: createAgentRegistry([agent('generalist')]),
      describeTools: spy.describeTools,
    });
    expect(await describeAgent('generalist', [])).toMatchObject({ found: true, tools: [{ name: 'everything' }] });
    expect(spy.asked).toEqual([undefined]);
  });

  it('answers an unknown name with the known ids, at most 50 listed and the rest counted, describing nothing', async () => {
    const spy = describeSpy();
    const ids = Array.from({ length: 52 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
    const { describeAgent } = createAgentActivities({
      agents: createAgentRegistry(ids.map((id) => agent(id))),
      describeTools: spy.describeTools,
    });
    expect(await describeAgent('nobody', [])).toEqual({ found: false, known: ids.slice(0, 50), more: 2 });
    expect(spy.asked).toEqual([]);
  });
});
