import type { ChainComparison, ComparedCall, ComparedRun, IterationFacts } from '../../domain/compare/chain-comparison';
import { clip, count, usd } from './terminal-style';

/** "completed · success, 3 iterations, 1,234 tokens, $0.0123" (spend only when shown). */
function runLine(side: 'A' | 'B', run: ComparedRun): string {
  const ending = run.terminationReason ? `${run.status} · ${run.terminationReason}` : run.status;
  const facts = [ending, `${run.iterations} iteration${run.iterations === 1 ? '' : 's'}`];
  if (run.tokens !== undefined) facts.push(`${count(run.tokens)} tokens`);
  if (run.costUsd !== undefined) facts.push(usd(run.costUsd));
  if (run.forkedFrom)
    facts.push(`forked from ${run.forkedFrom.workflowId} after step ${run.forkedFrom.keptThroughStep}`);
  return `${side}: ${run.runId} (${run.agentName}) ${facts.join(', ')}`;
}

const callText = (call: ComparedCall): string =>
  `${call.tool} ${clip(call.arguments, 120)}${call.result === undefined ? '' : ` → ${call.failed ? 'failed: ' : ''}${clip(call.result, 120)}`}`;

/** One side of a differing iteration: its thought, calls and (when shown) cost, each on its own line. */
function sideLines(side: 'A' | 'B', facts: IterationFacts | undefined): string[] {
  if (!facts) return [];
  const lines = facts.thoughts.map((t) => `  ${side}: thought: ${clip(t.replace(/\s+/g, ' '), 160)}`);
  for (const call of facts.calls) lines.push(`  ${side}: ${callText(call)}`);
  if (facts.calls.length === 0) lines.push(`  ${side}: no tool calls`);
  const model = facts.models.length ? `model ${[...new Set(facts.models)].join(', ')}` : '';
  const cost = facts.costUsd === undefined ? '' : usd(facts.costUsd);
  if (model || cost) lines.push(`  ${side}: ${[model, cost].filter(Boolean).join(' · ')}`);
  return lines;
}

/**
 * `diff` for people: both runs' endings, then each iteration aligned by number, the same ones in
 * one line, a differing one with what differs and both sides; then both answers when they differ.
 * Spend shows only when the comparison carries it (not in the end user's view).
 */
export function renderComparison(c: ChainComparison): string {
  const out = [runLine('A', c.a), runLine('B', c.b), ''];
  const first = c.firstDifference;
  out.push(
    first === undefined
      ? 'Every iteration is the same.'
      : first <= 1
        ? `They differ from iteration ${first}.`
        : `Same through iteration ${first - 1}; they differ from iteration ${first}.`,
  );
  for (const it of c.iterations) {
    if (it.differences.length === 0) {
      const calls = it.a!.calls.map((call) => call.tool).join(', ') || 'no tool calls';
      out.push(`= iteration ${it.iteration}: ${calls}`);
      continue;
    }
    const what = it.differences[0] === 'missing' ? `only in ${it.a ? 'A' : 'B'}` : it.differences.join(', ');
    out.push(`≠ iteration ${it.iteration}: ${what}`, ...sideLines('A', it.a), ...sideLines('B', it.b));
  }
  const answer = (text: string | undefined) =>
    text === undefined ? '(none yet)' : clip(text.replace(/\s+/g, ' '), 400);
  if (c.answerDiffers) out.push('≠ answer', `  A: ${answer(c.a.answer)}`, `  B: ${answer(c.b.answer)}`);
  else if (c.a.answer !== undefined) out.push(`= answer: ${answer(c.a.answer)}`);
  return `${out.join('\n')}\n`;
}
