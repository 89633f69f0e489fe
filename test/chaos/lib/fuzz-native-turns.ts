import type { AssistantBlock } from '../../../src/domain';
import { nastyText } from './fuzz-text';
import type { CallOutcome, FuzzContext, FuzzTurn } from './fuzz-turn';

type ToolUse = Extract<AssistantBlock, { type: 'tool_use' }>;
interface Call {
  block: ToolUse;
  outcome: CallOutcome;
  label: string;
}

const UNKNOWN_NAMES = [
  'nonexistent',
  'LOOKUP',
  'lookup ',
  '',
  'look\u0000up',
  'lookup\uD800',
  'get weather',
  'tool'.repeat(30),
  'finish_',
  '../lookup',
];
const WRONG_KEYS: unknown[] = [5, null, true, 1.5, [], ['a'], {}, { key: 'nested' }];
const BAD_RESULTS: unknown[] = ['', '   ', 42, null, ['x'], { text: 'x' }];

/** One call of a fuzzed native turn, good or bad; every input carries a nonce so no call repeats another. */
function fuzzCall(ctx: FuzzContext): Call {
  const { r } = ctx;
  const nonce = ctx.id('nonce-');
  const use = (name: string, input: Record<string, unknown>): ToolUse => ({
    type: 'tool_use',
    id: ctx.id('toolu_fuzz_'),
    name,
    input,
  });
  const kind = r.pick([
    'lookup',
    'lookup',
    'big',
    'unknown',
    'wrong-type',
    'missing',
    'bad-boolean',
    'fails',
    'extra',
  ] as const);
  switch (kind) {
    case 'lookup': {
      const huge = ctx.takeHuge(0.1);
      const key = huge ? nastyText(r, { huge }) : nastyText(r);
      return { block: use('lookup', { key, nonce }), outcome: 'ok', label: huge ? 'lookup(huge key)' : 'lookup' };
    }
    case 'big':
      return { block: use('big_result', { nonce }), outcome: 'ok', label: 'big_result' };
    case 'extra':
      // Extra fields are allowed (the schema has no additionalProperties: false) and dropped by the tool.
      return {
        block: use('lookup', { key: 'k', nonce, extra: nastyText(r), nested: { deep: [1, { x: null }] } }),
        outcome: 'ok',
        label: 'lookup(+extra fields)',
      };
    case 'unknown': {
      const name = r.chance(0.3) ? nastyText(r) : r.pick(UNKNOWN_NAMES);
      return {
        block: use(name, { nonce }),
        outcome: 'unknown_tool',
        label: `unknown ${JSON.stringify(name.slice(0, 20))}`,
      };
    }
    case 'wrong-type':
      return {
        block: use('lookup', { key: r.pick(WRONG_KEYS), nonce }),
        outcome: 'invalid_args',
        label: 'lookup(wrong type)',
      };
    case 'missing':
      return { block: use('lookup', { nonce }), outcome: 'invalid_args', label: 'lookup(missing key)' };
    case 'bad-boolean':
      return {
        block: use('big_result', { secret: r.pick(['yes', 1, null, {}]), nonce }),
        outcome: 'invalid_args',
        label: 'big_result(wrong type)',
      };
    case 'fails':
      return { block: use('always_fails', { nonce }), outcome: 'tool_failed', label: 'always_fails' };
  }
}

/** Text and thinking around the calls: nasty, sometimes empty, now and then huge. */
function preamble(ctx: FuzzContext): { blocks: AssistantBlock[]; labels: string[] } {
  const { r } = ctx;
  const blocks: AssistantBlock[] = [];
  const labels: string[] = [];
  if (r.chance(0.15)) {
    blocks.push({ type: 'thinking', thinking: nastyText(r, { multiline: true }), signature: ctx.id('sig-') });
    labels.push('thinking');
  }
  if (r.chance(0.6)) {
    const empty = r.chance(0.15);
    const huge = !empty && ctx.takeHuge(0.15);
    blocks.push({ type: 'text', text: empty ? '' : nastyText(r, { multiline: true, huge }) });
    if (empty || huge) labels.push(empty ? 'empty text' : 'huge text');
  }
  return { blocks, labels };
}

/**
 * A native turn the run must go on from: 1-3 calls (or 6-16), each a good call or a bad one
 * (unknown tool, invalid arguments, a failing tool), sometimes an invalid `finish`, sometimes
 * two calls sharing one tool_use id, with nasty or huge text around them.
 */
export function nativeMidTurn(ctx: FuzzContext): FuzzTurn {
  const { r } = ctx;
  const many = r.chance(0.15);
  const calls = Array.from({ length: many ? r.int(6, 16) : r.int(1, 3) }, () => fuzzCall(ctx));
  if (r.chance(0.2)) {
    const result = r.chance(0.2) ? {} : { result: r.pick(BAD_RESULTS) };
    calls.splice(r.int(0, calls.length), 0, {
      block: { type: 'tool_use', id: ctx.id('toolu_fuzz_'), name: 'finish', input: result },
      outcome: 'invalid_finish',
      label: 'finish(invalid result)',
    });
  }
  // Two calls with one id (the API never sends it; a proxy or a replayed log might). Never a finish's id:
  // the finish's refusal is keyed by id and would be given to its twin too.
  const around = preamble(ctx);
  const labels = [...around.labels, ...calls.map((c) => c.label)];
  const plain = calls.filter((c) => c.block.name !== 'finish');
  if (plain.length >= 2 && r.chance(0.2)) {
    plain[1]!.block.id = plain[0]!.block.id;
    labels.push('duplicate id');
  }
  return {
    label: `native: ${labels.join(', ')}`,
    turn: { content: [...around.blocks, ...calls.map((c) => c.block)] },
    expect: { kind: 'calls', calls: calls.map((c) => c.outcome) },
  };
}

/** The last native turn: a text answer, a `finish` (maybe beside calls it skips), or `give_up`. */
export function nativeEndTurn(ctx: FuzzContext, marker: string): FuzzTurn {
  const { r } = ctx;
  const answer = `${r.chance(0.3) ? '  ' : ''}${marker} ${nastyText(r)}`;
  const kind = r.pick(['text', 'finish', 'finish', 'give_up'] as const);
  if (kind === 'text') {
    return {
      label: 'native end: text answer',
      turn: { content: [{ type: 'text', text: answer }] },
      expect: { kind: 'end', reason: 'success', answer: answer.trim(), exact: true, calls: [] },
    };
  }
  const skipped = r.chance(0.4) ? Array.from({ length: r.int(1, 3) }, () => fuzzCall(ctx).block) : [];
  const control: ToolUse = {
    type: 'tool_use',
    id: ctx.id('toolu_fuzz_'),
    name: kind,
    input: kind === 'finish' ? { result: answer } : { reason: answer },
  };
  return {
    label: `native end: ${kind}${skipped.length ? ` beside ${skipped.length} calls` : ''}`,
    turn: { content: [...preamble(ctx).blocks, ...skipped, control] },
    expect: {
      kind: 'end',
      reason: kind === 'finish' ? 'success' : 'failure',
      answer: kind === 'finish' ? answer : answer.trim(),
      exact: true,
      calls: [...skipped.map((): CallOutcome => 'not_run'), 'ok'],
    },
  };
}
