import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { defineAgent } from '../../../src/agents/define-agent';
import { exampleFromChain } from '../../../src/domain';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Seed 000's trace of looking gamma up, as the system prompt must show it. */
const GAMMA_TRACE =
  '<task>\nFind gamma\n</task>\n<trace>\nThought: I should look gamma up.\nAction: lookup\nAction Input: {"key":"gamma"}\n' +
  'Observation: {"key":"gamma","value":50}\n</trace>\n<answer>\ngamma=50 (from lookup)\n</answer>';

describe('few-shot examples as ReAct traces', () => {
  it('a trace example reaches the model as Thought / Action / Action Input / Observation before its answer, beside a task/answer one', async () => {
    const researcher = defineAgent({
      id: 'trace-researcher',
      description: 'Looks values up.',
      version: '1.0.0',
      systemPrompt: 'You are the research agent.',
      examples: [
        {
          task: 'Find gamma',
          steps: [
            {
              thought: 'I should look gamma up.',
              action: { tool: 'lookup', arguments: { key: 'gamma' } },
              observation: '{"key":"gamma","value":50}',
            },
          ],
          answer: 'gamma=50 (from lookup)',
        },
        { task: 'Capital of Peru?', answer: 'Lima.' },
      ],
      tools: ['lookup'],
    });
    for (const strategy of ['native', 'react-text'] as const) {
      const { result, model } = await runScripted(env, {
        agents: [researcher],
        input: { task: 'Find alpha', agent: 'trace-researcher', strategy },
        script: [
          strategy === 'native'
            ? { content: [useTool('finish', { result: 'alpha=50' })] }
            : { content: [say('Thought: I know it.\nFinal Answer: alpha=50')] },
        ],
      });
      expect(result).toMatchObject({ success: true, finalAnswer: 'alpha=50' });
      const system = model.calls[0]!.system;
      expect(system).toContain(`<example index="1">\n${GAMMA_TRACE}\n</example>`);
      expect(system).toContain('<example index="2">\n<task>\nCapital of Peru?\n</task>\n<answer>\nLima.\n</answer>');
    }
  });

  it('a finished run’s chain becomes an example whose trace reaches the next run’s prompt', async () => {
    const recorded = await runScripted(env, {
      input: { task: 'Find gamma', tools: ['lookup'] },
      script: [
        { content: [say('I should look gamma up.'), useTool('lookup', { key: 'gamma' })] },
        { content: [useTool('finish', { result: 'gamma=50 (from lookup)' })] },
      ],
    });
    const made = exampleFromChain(recorded.result.chain);
    expect(made).toEqual({
      example: {
        task: 'Find gamma',
        steps: [
          {
            thought: 'I should look gamma up.',
            action: { tool: 'lookup', arguments: { key: 'gamma' } },
            observation: '{"key":"gamma","value":50}',
          },
        ],
        answer: 'gamma=50 (from lookup)',
      },
    });
    if (!('example' in made)) return;
    const learnt = defineAgent({
      id: 'learnt-researcher',
      description: 'Looks values up.',
      version: '1.0.0',
      systemPrompt: 'You are the research agent.',
      examples: [made.example],
      tools: ['lookup'],
    });
    const { model } = await runScripted(env, {
      agents: [learnt],
      input: { task: 'Find alpha', agent: 'learnt-researcher' },
      script: [{ content: [useTool('finish', { result: 'alpha=50' })] }],
    });
    expect(model.calls[0]!.system).toContain(GAMMA_TRACE);
  });
});
