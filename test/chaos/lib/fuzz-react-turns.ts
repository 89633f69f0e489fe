import type { AssistantBlock } from '../../../src/domain';
import { REACT_FORMAT_ERRORS } from '../../../src/workflows/react-text/react-parser';
import { nastyText } from './fuzz-text';
import type { CallOutcome, FuzzContext, FuzzTurn } from './fuzz-turn';

const NOT_AN_OBJECT = "Invalid Format: 'Action Input:' must be one JSON object";

const reply = (ctx: FuzzContext, text: string): AssistantBlock[] => {
  const thinking: AssistantBlock[] = ctx.r.chance(0.1)
    ? [{ type: 'thinking', thinking: nastyText(ctx.r, { multiline: true }), signature: ctx.id('sig-') }]
    : [];
  return [...thinking, { type: 'text', text }];
};
const formatError = (ctx: FuzzContext, label: string, text: string, message: string): FuzzTurn => ({
  label: `react: ${label}`,
  turn: { content: reply(ctx, text) },
  expect: { kind: 'format_error', message },
});
const call = (ctx: FuzzContext, label: string, text: string, outcome: CallOutcome): FuzzTurn => ({
  label: `react: ${label}`,
  turn: { content: reply(ctx, text) },
  expect: { kind: 'calls', calls: [outcome] },
});

/**
 * A text-ReAct turn the run must go on from: malformed (each with the observation the parser
 * owes it), or a call that is good, to an unknown tool, with invalid arguments, or failing.
 * Thoughts are nasty and sometimes huge; inputs are JSON.stringify'd, so odd characters arrive
 * escaped and valid, as a model's JSON would carry them.
 */
export function reactMidTurn(ctx: FuzzContext): FuzzTurn {
  const huge = ctx.takeHuge(0.12);
  const turn = midTurnAfter(ctx, `Thought: ${nastyText(ctx.r, { multiline: true, huge })}\n`);
  // Every kind but the empty reply carries the thought.
  return huge && !turn.label.endsWith('empty reply') ? { ...turn, label: `${turn.label}, huge thought` } : turn;
}

function midTurnAfter(ctx: FuzzContext, thought: string): FuzzTurn {
  const { r } = ctx;
  const input = (value: Record<string, unknown>) => JSON.stringify({ ...value, nonce: ctx.id('nonce-') });
  const kind = r.pick([
    'empty',
    'thought-only',
    'no-input',
    'input-first',
    'action-and-answer',
    'broken-json',
    'array-input',
    'no-tool',
    'empty-input',
    'empty-answer',
    'ok',
    'ok',
    'ok-huge',
    'unknown',
    'invalid',
    'fails',
  ] as const);
  switch (kind) {
    case 'empty':
      return formatError(ctx, 'empty reply', r.pick(['', ' ', '\n\n', ' \t \n']), REACT_FORMAT_ERRORS.empty);
    case 'thought-only':
      return formatError(ctx, 'thought only', thought, REACT_FORMAT_ERRORS.missingActionOrAnswer);
    case 'no-input':
      return formatError(
        ctx,
        'missing Action Input',
        `${thought}Action: lookup`,
        REACT_FORMAT_ERRORS.missingActionInput,
      );
    case 'input-first':
      return formatError(
        ctx,
        'Action Input before Action',
        `${thought}Action Input: ${input({ key: 'a' })}\nAction: lookup`,
        REACT_FORMAT_ERRORS.missingAction,
      );
    case 'action-and-answer':
      return formatError(
        ctx,
        'Action and Final Answer',
        `${thought}Action: lookup\nAction Input: ${input({ key: 'a' })}\nFinal Answer: both at once`,
        REACT_FORMAT_ERRORS.actionAndAnswer,
      );
    case 'broken-json':
      return formatError(
        ctx,
        'broken JSON input',
        `${thought}Action: lookup\nAction Input: ${r.pick(['{"key": ', '{"key": "a",}', "{'key': 'a'}", '{key: a}', 'key=a'])}`,
        NOT_AN_OBJECT,
      );
    case 'array-input':
      return formatError(ctx, 'array input', `${thought}Action: lookup\nAction Input: ["a", "b"]`, NOT_AN_OBJECT);
    case 'no-tool':
      return formatError(
        ctx,
        'no tool name',
        `${thought}Action:\nAction Input: ${input({ key: 'a' })}`,
        REACT_FORMAT_ERRORS.emptyToolName,
      );
    case 'empty-input':
      return formatError(
        ctx,
        'empty Action Input',
        `${thought}Action: lookup\nAction Input:`,
        REACT_FORMAT_ERRORS.emptyActionInput,
      );
    case 'empty-answer':
      return formatError(ctx, 'empty Final Answer', `${thought}Final Answer:`, REACT_FORMAT_ERRORS.emptyFinalAnswer);
    case 'ok':
      return call(ctx, 'lookup', `${thought}Action: lookup\nAction Input: ${input({ key: nastyText(r) })}`, 'ok');
    case 'ok-huge': {
      const huge = ctx.takeHuge(1);
      return call(
        ctx,
        huge ? 'lookup(huge key)' : 'lookup',
        `${thought}Action: lookup\nAction Input: ${input({ key: nastyText(r, { huge }) })}`,
        'ok',
      );
    }
    case 'unknown':
      return call(
        ctx,
        'unknown tool',
        `${thought}Action: ${r.pick(['nonexistent', 'search', 'Lookup2', 'get-weather'])}\nAction Input: ${input({})}`,
        'unknown_tool',
      );
    case 'invalid':
      return call(
        ctx,
        'invalid arguments',
        `${thought}Action: lookup\nAction Input: ${input({ key: r.pick([5, null, true, [], {}]) })}`,
        'invalid_args',
      );
    case 'fails':
      return call(ctx, 'failing tool', `${thought}Action: always_fails\nAction Input: ${input({})}`, 'tool_failed');
  }
}

/** The last text-ReAct turn: a Final Answer, or the give-up tool as an Action. */
export function reactEndTurn(ctx: FuzzContext, marker: string): FuzzTurn {
  const { r } = ctx;
  const thought = `Thought: ${nastyText(r, { multiline: true })}\n`;
  if (r.chance(0.75)) {
    return {
      label: 'react end: Final Answer',
      turn: { content: reply(ctx, `${thought}Final Answer: ${marker} ${nastyText(r)}`) },
      expect: { kind: 'end', reason: 'success', answer: marker, exact: false, calls: ['ok'] },
    };
  }
  const reason = `${marker} cannot be done`;
  return {
    label: 'react end: give_up',
    turn: { content: reply(ctx, `${thought}Action: give_up\nAction Input: ${JSON.stringify({ reason })}`) },
    expect: { kind: 'end', reason: 'failure', answer: reason, exact: true, calls: ['ok'] },
  };
}
