import { describe, expect, it } from 'vitest';
import { AgentInput, type SubAgentDefinition } from '../../../../src/domain';
import { childInput } from '../../../../src/workflows/delegation/child-input';

const budget = { maxIterations: 5 };
const path = [
  { agentName: 'lead', workflowId: 'root' },
  { agentName: 'helper', workflowId: 'root/helper-3' },
];
const definition = (tools?: string[]): SubAgentDefinition =>
  ({ description: 'Helps', limits: {}, ...(tools ? { tools } : {}) }) as SubAgentDefinition;
const parent = (tools?: string[]) =>
  AgentInput.parse({
    task: 'Lead',
    model: { provider: 'scripted', model: 'm' },
    ...(tools ? { tools } : {}),
    agents: {
      helper: { description: 'Helps' },
      checker: { description: 'Checks' },
      constructor: { description: 'Named like a prototype key' },
    },
  });
const toolsOf = (p: AgentInput, d: SubAgentDefinition) => childInput(p, d, 'Do it', budget, path, 3).tools;

describe('childInput: a definition without tools inherits its parent’s limits', () => {
  it('inherits a limited parent’s registered tools, plus the catalogue agents not on its path, when it names none', () => {
    expect(toolsOf(parent(['lookup', 'helper']), definition())).toEqual(['lookup', 'checker', 'constructor']);
  });

  it('keeps a definition’s own list: the catalogue author granted it (a coordinator need not hold its workers’ tools)', () => {
    expect(toolsOf(parent(['helper']), definition(['write_file', 'checker']))).toEqual(['write_file', 'checker']);
  });

  it('changes nothing when the parent is not limited', () => {
    expect(toolsOf(parent(), definition())).toBeUndefined();
    expect(toolsOf(parent(), definition(['write_file']))).toEqual(['write_file']);
  });

  it('treats a tool named like a prototype key as a tool, not as an agent', () => {
    expect(toolsOf(parent(['toString', 'lookup']), definition())).toEqual([
      'toString',
      'lookup',
      'checker',
      'constructor',
    ]);
  });
});
