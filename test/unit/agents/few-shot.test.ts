import { describe, expect, it } from 'vitest';
import { agentSystemPrompt, renderFewShot } from '../../../src/workflows/loop/few-shot';

describe('renderFewShot', () => {
  it('renders nothing for no examples', () => {
    expect(renderFewShot([])).toBe('');
  });

  it('renders each example numbered, in order, inside tags, after one line saying what they are', () => {
    const text = renderFewShot([
      { task: 'Capital of France?', answer: 'Paris.' },
      { task: 'Capital of Peru?', answer: 'Lima.' },
    ]);
    expect(text).toBe(
      [
        'Examples of tasks and the answers expected for them. They show the approach and the form of an answer; they are not part of the current task.',
        '<example index="1">\n<task>\nCapital of France?\n</task>\n<answer>\nParis.\n</answer>\n</example>',
        '<example index="2">\n<task>\nCapital of Peru?\n</task>\n<answer>\nLima.\n</answer>\n</example>',
      ].join('\n\n'),
    );
  });
});

describe('renderFewShot with traces', () => {
  it('renders an example’s steps as a compact ReAct trace between its task and answer, and says once what a trace is', () => {
    const text = renderFewShot([
      {
        task: 'Weather in Paris and Oslo?',
        steps: [
          {
            thought: 'Paris first.',
            action: { tool: 'weather', arguments: { city: 'Paris', units: 'c' } },
            observation: '{"t":12}',
          },
          { action: { tool: 'weather', arguments: { city: 'Oslo' } }, observation: 'Error: timeout' },
        ],
        answer: 'Paris 12°C; Oslo unknown.',
      },
      { task: 'Capital of Peru?', answer: 'Lima.' },
    ]);
    expect(text).toBe(
      [
        'Examples of tasks and the answers expected for them. They show the approach and the form of an answer; they are not part of the current task.',
        'A trace shows the steps taken: each Thought, the tool called (Action) with its arguments as JSON (Action Input), and what it returned (Observation). Call tools as your instructions about tools say, not by writing these lines.',
        '<example index="1">\n<task>\nWeather in Paris and Oslo?\n</task>\n<trace>\n' +
          'Thought: Paris first.\nAction: weather\nAction Input: {"city":"Paris","units":"c"}\nObservation: {"t":12}\n\n' +
          'Action: weather\nAction Input: {"city":"Oslo"}\nObservation: Error: timeout\n</trace>\n<answer>\nParis 12°C; Oslo unknown.\n</answer>\n</example>',
        '<example index="2">\n<task>\nCapital of Peru?\n</task>\n<answer>\nLima.\n</answer>\n</example>',
      ].join('\n\n'),
    );
  });
});

describe('agentSystemPrompt', () => {
  it('is the instructions alone without examples', () => {
    expect(agentSystemPrompt({ systemPrompt: 'Be brief.', examples: [] })).toBe('Be brief.');
  });

  it('puts the examples after the instructions', () => {
    const prompt = agentSystemPrompt({ systemPrompt: 'Be brief.', examples: [{ task: 'T', answer: 'A' }] });
    expect(prompt.startsWith('Be brief.\n\nExamples of tasks')).toBe(true);
    expect(prompt.endsWith('<answer>\nA\n</answer>\n</example>')).toBe(true);
  });
});
