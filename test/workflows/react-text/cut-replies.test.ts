import { describe, expect, it } from 'vitest';
import { say } from '../../../src/activities/models/scripted-model';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const input = {
  task: 'What is the value of alpha?',
  model: { provider: 'scripted', model: 'm', maxTokens: 100 },
  strategy: 'react-text',
} as const;
const cut = (text: string) => ({ content: [say(text)], stopReason: 'max_tokens' });

// Seen with SmolLM2 behind a server that caps replies at 512 tokens: every retry with more room
// was cut at the same place and the run failed. A cut text reply is read for what it holds.
describe('text ReAct replies cut at max_tokens', () => {
  it('runs a complete Action written before the cut, without retrying for more room', async () => {
    const { result, model, log } = await runScripted(env, {
      script: [
        cut('Thought: I need alpha.\nAction: lookup\nAction Input: {"key": "alpha"}\nI will then think about what'),
        { content: [say('Thought: I have it.\nFinal Answer: 50')] },
      ],
      input,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: '50', formatErrors: 0, toolCalls: 1 });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
    expect(model.calls.map((c) => c.maxTokens)).toEqual([100, 100]);
  });

  it('counts a rambling cut reply as a format error and goes on, instead of ending the run', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        cut('Thought: Let me think about alpha at length, and about beta, and about'),
        cut('Thought: I need alpha.\nAction: lookup\nAction Input: {"key": "al'),
        { content: [say('Thought: I need alpha.\nAction: lookup\nAction Input: {"key": "alpha"}')] },
        { content: [say('Final Answer: 50')] },
      ],
      input,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: '50', formatErrors: 2, toolCalls: 1 });
    expect(model.calls.map((c) => c.maxTokens)).toEqual([100, 100, 100, 100]);
    expect(JSON.stringify(model.calls[1]!.messages.at(-1))).toContain(
      'cut at its length limit before a complete Action and Action Input',
    );
  });

  it('asks again for a Final Answer that was cut, rather than accept half an answer', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        cut('Thought: I know it.\nFinal Answer: alpha is fifty, because the table of'),
        { content: [say('Final Answer: 50')] },
      ],
      input,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: '50', formatErrors: 1 });
    expect(JSON.stringify(model.calls[1]!.messages.at(-1))).toContain('inside the Final Answer');
  });

  it('stops as stalled, not failed, when every reply is cut before an action', async () => {
    const ramble = cut('Thought: and so on, and so on, and so on');
    const { result } = await runScripted(env, {
      // Cut replies in a row stall the run at the threshold; its summary call takes the last turn.
      script: Array.from({ length: 5 }, () => ramble),
      input: { ...input, stallThreshold: 3 },
    });
    expect(result.terminationReason).toBe('stalled');
  });
});
