import type { ChainComparison, ComparedCall, ComparedRun, IterationFacts } from '../../domain/compare/chain-comparison';
import { clip, count, usd } from './terminal-style';

/** "completed · success, 3 iterations, 1,234 tokens, $0.0123" (spend only when shown). */
function runLine(side: 'A' | 'B', run: ComparedRun, spend: boolean): string {
  const ending = run.terminationReason ? `${run.status} · ${run.terminationReason}` : run.status;
  const facts = [ending, `${run.iterations} iteration${run.iterations === 1 ? '' : 's'}`];
  if (spend) facts.push(`${count(run.tokens)} tokens`, usd(run.costUsd));
  return `${side}: ${run.runId} (${run.agentName}) ${facts.join(', ')}`;
}

const callText = (call: ComparedCall): string =>
  `${call.tool} ${clip(call.arguments, 120)}${call.result === undefined ? '' : ` → ${call.failed ? 'failed: ' : ''}${clip(call.result, 120)}`}`;

/** One side of a differing iteration: its thought, calls and (when shown) cost, each on its own line. */
function sideLines(side: 'A' | 'B', facts: IterationFacts | undefined, spend: boolean): string[] {
  if (!facts) return [];
  const lines = facts.thoughts.map((t) => `  ${side}: thought: ${clip(t.replace(/\s+/g, ' '), 160)}`);
  for (const call of facts.calls) lines.push(`  ${side}: ${callText(call)}`);
  if (facts.calls.length === 0) lines.push(`  ${side}: no tool calls`);
  const model = facts.models.length ? `model ${[...new Set(facts.models)].join(', ')}` : '';
  const cost = spend ? usd(facts.costUsd) : '';
  if (model || cost) lines.push(`  ${side}: ${[model, cost].filter(Boolean).join(' · ')}`);
  return lines;
}

/**
 * `diff` for people: both runs' endings, then each iteration aligned by number, the same ones in
 * one line, a differing one with what differs and both sides; then both answers when they differ.
 * Cost is left out of the end user's view, as in `runs`.
 */
export function renderComparison(c: ChainComparison, spend: boolean): string {
  const out = [runLine('A', c.a, spend), runLine('B', c.b, spend), ''];
  const differences = (list: string[]) => list.filter((d) => spend || d !== 'cost');
  // A difference in cost alone is no difference in a view without cost.
  const first = c.iterations.find((it) => differences(it.differences).length > 0)?.iteration;
  out.push(
    first === undefined
      ? 'Every iteration is the same.'
      : first <= 1
        ? `They differ from iteration ${first}.`
        : `Same through iteration ${first - 1}; they differ from iteration ${first}.`,
  );
  for (const it of c.iterations) {
    const marks = differences(it.differences);
    if (marks.length === 0) {
      const calls = it.a!.calls.map((call) => call.tool).join(', ') || 'no tool calls';
      out.push(`= iteration ${it.iteration}: ${calls}`);
      continue;
    }
    const what = marks[0] === 'missing' ? `only in ${it.a ? 'A' : 'B'}` : marks.join(', ');
    out.push(`≠ iteration ${it.iteration}: ${what}`, ...sideLines('A', it.a, spend), ...sideLines('B', it.b, spend));
  }
  if (c.answerDiffers) {
    out.push('≠ answer');
    out.push(`  A: ${c.a.answer === undefined ? '(none yet)' : clip(c.a.answer.replace(/\s+/g, ' '), 400)}`);
    out.push(`  B: ${c.b.answer === undefined ? '(none yet)' : clip(c.b.answer.replace(/\s+/g, ' '), 400)}`);
  } else if (c.a.answer !== undefined) out.push(`= answer: ${clip(c.a.answer.replace(/\s+/g, ' '), 400)}`);
  return `${out.join('\n')}\n`;
}
