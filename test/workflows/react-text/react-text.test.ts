import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { stepShape, thoughts } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const question = { task: 'What is the value of alpha?', model: { provider: 'scripted', model: 'm' } } as const;

describe('the react-text strategy', () => {
  it('solves the same task as the native strategy with the same chain shape', async () => {
    const native = await runScripted(env, {
      script: [
        { content: [say('I need alpha.'), useTool('lookup', { key: 'alpha' })] },
        { content: [say('I have it.'), useTool('finish', { result: 'alpha is 50' })] },
      ],
      input: { ...question, strategy: 'native' },
    });
    const text = await runScripted(env, {
      script: [
        { content: [say('Thought: I need alpha.\nAction: lookup\nAction Input: {"key": "alpha"}')] },
        { content: [say('Thought: I have it.\nFinal Answer: alpha is 50')] },
      ],
      input: { ...question, strategy: 'react-text' },
    });
    for (const { result } of [native, text])
      expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50', toolCalls: 1, formatErrors: 0 });
    expect(stepShape(text.result.chain.steps)).toEqual(stepShape(native.result.chain.steps));
    expect(thoughts(text.result.chain.steps)).toEqual(thoughts(native.result.chain.steps));

    // Text ReAct sends no tools, teaches the format, stops before a made-up Observation,
    // and returns each result as an Observation line.
    const [first, second] = text.model.calls;
    expect(first).toMatchObject({ tools: [], stopSequences: ['\nObservation:'] });
    expect(first!.system).toContain('lookup: Looks up a number for a key');
    expect(first!.system).toContain('Action Input:');
    // The observation sits between two lines of the run's own marker (tool output cannot pass for instructions).
    const observed = second!.messages.at(-1);
    expect(observed?.role).toBe('user');
    const observation = observed?.content[0]?.type === 'text' ? observed.content[0].text : '';
    expect(observation).toMatch(/^Observation: \n(<<observation-[0-9a-z]+>>)\n\{"key":"alpha","value":50\}\n\1$/);
    expect(second!.system).toContain(observation.split('\n')[1]!);
  });

  it('returns a malformed reply to the model as a targeted observation and counts it', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        { content: [say('Thought: I should look it up.\nAction: lookup')] },
        { content: [say('Thought: Right.\nAction: lookup\nAction Input: "alpha"')] },
        { content: [say('Thought: Now properly.\nAction: lookup\nAction Input: {"key": "alpha"}')] },
        { content: [say('Final Answer: 50')] },
      ],
      input: { ...question, strategy: 'react-text' },
    });
    expect(result).toMatchObject({ success: true, finalAnswer: '50', formatErrors: 2, toolCalls: 1 });
    const observation = (i: number) => JSON.stringify(model.calls[i]!.messages.at(-1));
    expect(observation(1)).toContain("Invalid Format: Missing 'Action Input:' after 'Action:'");
    expect(observation(2)).toContain("'Action Input:' must be one JSON object");
    expect(
      result.chain.steps.filter((s) => s.type === 'thinking' && s.thought.startsWith('Reply not understood')),
    ).toHaveLength(2);
  });
});
