import { describe, expect, it } from 'vitest';
import { AgentInput, DEFAULT_THOUGHT_PROMPT, MAX_THOUGHT_PROMPT_CHARS } from '../../../../src/domain';
import { reactParser } from '../../../../src/workflows/react-text/react-parser';
import { reactStopSequences, reactTextSystemPrompt } from '../../../../src/workflows/react-text/react-text-prompt';
import { similarCallKey, callKey } from '../../../../src/workflows/core/stable-hash';

describe('reasoning settings (AgentInput)', () => {
  it('has the seed’s defaults', () => {
    const input = AgentInput.parse({ task: 't' });
    expect(input).toMatchObject({
      requireThought: true,
      thoughtPrompt: DEFAULT_THOUGHT_PROMPT,
      scratchpad: true,
      askConfidence: false,
      stallThreshold: 3,
      stallWindow: 8,
      labels: {
        thought: 'Thought',
        action: 'Action',
        actionInput: 'Action Input',
        observation: 'Observation',
        finalAnswer: 'Final Answer',
        confidence: 'Confidence',
      },
    });
    expect(input.thoughtValidation).toBeUndefined();
    expect(AgentInput.parse({ task: 't', thoughtValidation: {} }).thoughtValidation).toEqual({
      minChars: 20,
      refuseDegenerate: true,
      refuseRepeated: true,
    });
  });

  it('refuses labels the parser could not tell apart, or could not read', () => {
    expect(AgentInput.safeParse({ task: 't', labels: { action: 'Thought' } }).success).toBe(false);
    expect(
      AgentInput.safeParse({ task: 't', labels: { action: 'action input', actionInput: 'Action_Input' } }).success,
    ).toBe(false);
    for (const bad of ['Act:', '', '1st', 'x'.repeat(31)])
      expect(AgentInput.safeParse({ task: 't', labels: { action: bad } }).success).toBe(false);
    expect(AgentInput.safeParse({ task: 't', labels: { thought: 'Réflexion', action: 'Werkzeug' } }).success).toBe(
      true,
    );
  });

  it('bounds the thought prompt and the confidence threshold', () => {
    expect(AgentInput.safeParse({ task: 't', thoughtPrompt: 'x'.repeat(MAX_THOUGHT_PROMPT_CHARS) }).success).toBe(true);
    expect(AgentInput.safeParse({ task: 't', thoughtPrompt: 'x'.repeat(MAX_THOUGHT_PROMPT_CHARS + 1) }).success).toBe(
      false,
    );
    expect(AgentInput.safeParse({ task: 't', confirmBelowConfidence: 1.5 }).success).toBe(false);
    expect(AgentInput.safeParse({ task: 't', stallWindow: 21 }).success).toBe(false);
  });
});

describe('custom labels in text ReAct', () => {
  const labels = AgentInput.parse({
    task: 't',
    labels: {
      thought: 'Reasoning',
      action: 'Tool',
      actionInput: 'Tool Args',
      observation: 'Result',
      finalAnswer: 'Answer Now',
    },
  }).labels;
  const parse = reactParser(labels);

  it('reads a reply in the run’s labels, with the parser’s usual tolerance', () => {
    expect(parse('Reasoning: need alpha\n**Tool:** lookup\ntool_args: {"key": "a"}')).toEqual({
      kind: 'action',
      tool: 'lookup',
      input: { key: 'a' },
      rawInput: '{"key": "a"}',
      thought: 'need alpha',
    });
    expect(parse('Reasoning: done\nAnswer now: 42')).toEqual({ kind: 'final', answer: '42', thought: 'done' });
    expect(parse('Tool: lookup Tool Args: {"key": "b"}')).toMatchObject({ kind: 'action', input: { key: 'b' } });
  });

  it('no longer reads the default labels as labels', () => {
    expect(parse('Thought: x\nAction: lookup\nAction Input: {}')).toMatchObject({ kind: 'error' });
  });

  it('cuts an invented Result, and says what is missing in the run’s labels', () => {
    expect(parse('Tool: lookup\nTool Args: {}\nResult: 7\nAnswer Now: 7')).toMatchObject({ kind: 'action' });
    expect(parse('Reasoning: hmm')).toEqual({
      kind: 'error',
      message: expect.stringContaining("Missing 'Tool:' or 'Answer Now:' after 'Reasoning:'"),
    });
  });

  it('prompts and stops in the run’s labels', () => {
    const prompt = reactTextSystemPrompt({ tools: [], labels, thoughtPrompt: DEFAULT_THOUGHT_PROMPT });
    expect(prompt).toContain('Reasoning: <your reasoning about what to do next>');
    expect(prompt).toContain('Tool Args: <the tool');
    expect(prompt).toContain('Answer Now: <your response to the user>');
    expect(prompt).toContain(DEFAULT_THOUGHT_PROMPT);
    expect(prompt).not.toMatch(/\bObservation\b/);
    expect(reactStopSequences(labels)).toEqual(['\nResult:']);
  });
});

describe('similarCallKey', () => {
  it('ignores case and spacing of strings, and key order; callKey does not', () => {
    expect(similarCallKey('t', { a: ' Paris  France', b: [1, 'X'] })).toBe(
      similarCallKey('t', { b: [1, 'x'], a: 'paris france' }),
    );
    expect(callKey('t', { a: 'Paris' })).not.toBe(callKey('t', { a: 'paris' }));
    expect(similarCallKey('t', { a: 'Paris' })).not.toBe(similarCallKey('u', { a: 'Paris' }));
    expect(similarCallKey('t', { n: 1 })).not.toBe(similarCallKey('t', { n: '1' }));
  });
});
