import { describe, expect, it } from 'vitest';
import { AgentInput, type SubAgentDefinition } from '../../../../src/domain';
import { childInput } from '../../../../src/workflows/delegation/child-input';

const path = [
  { agentName: 'lead', workflowId: 'root' },
  { agentName: 'helper', workflowId: 'root/helper-1' },
];
const definition = { description: 'Helps', limits: {} } as SubAgentDefinition;
const parent = (extra: object = {}) =>
  AgentInput.parse({
    task: 'Lead',
    model: { provider: 'scripted', model: 'm' },
    agents: { helper: { description: 'Helps' } },
    ...extra,
  });

describe('childInput: signed decisions', () => {
  it('passes the parent’s public keys on, so a sub-agent’s approvals and answers need signatures too', () => {
    const publicKeys = { k2: 'bmV3', k1: 'b2xk' };
    const child = childInput(
      parent({ signedDecisions: { publicKeys } }),
      definition,
      'Do it',
      { maxIterations: 3 },
      path,
      3,
    );
    expect(child.signedDecisions).toEqual({ publicKeys });
    expect(AgentInput.parse(child).signedDecisions).toEqual({ publicKeys });
  });

  it('adds nothing for a parent without them (old histories start the same children)', () => {
    expect(childInput(parent(), definition, 'Do it', { maxIterations: 3 }, path, 3)).not.toHaveProperty(
      'signedDecisions',
    );
  });
});
