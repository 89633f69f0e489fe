import { describe, expect, it } from 'vitest';
import { AgentInputConflictError } from '../../../src/client/errors/agent-input-conflict-error';
import { namedAgentInput } from '../../../src/client/start/named-agent-input';

const definition = { id: 'researcher', description: 'd', version: '1.0.0', systemPrompt: 'p' };

describe('namedAgentInput', () => {
  it('passes an input naming no agent through unchanged', () => {
    const init = { task: 't', agentName: 'mine', systemPrompt: 's', tools: ['lookup'] };
    expect(namedAgentInput(init)).toBe(init);
  });

  it('names the run after the agent, by name or inline, over the default name', () => {
    expect(namedAgentInput({ task: 't', agent: 'researcher' }).agentName).toBe('researcher');
    expect(namedAgentInput({ task: 't', definition }).agentName).toBe('researcher');
    expect(namedAgentInput({ task: 't', agent: 'researcher', agentName: 'agent' }).agentName).toBe('researcher');
  });

  it.each([
    [{ systemPrompt: 'x' }, 'takes its system prompt from the definition'],
    [{ tools: ['lookup'] }, 'takes its tools from the definition'],
    [{ agentName: 'other' }, 'agentName "other" is not agent "researcher"'],
    [
      { definition: { ...definition, id: 'writer' } },
      'agent "researcher" and definition "writer" name different agents',
    ],
  ])('refuses %j with the agent', (extra, message) => {
    const start = () => namedAgentInput({ task: 't', agent: 'researcher', ...extra });
    expect(start).toThrow(AgentInputConflictError);
    expect(start).toThrow(message);
  });
});
