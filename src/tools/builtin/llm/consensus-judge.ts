import { MAX_JUDGE_PROBLEM_CHARS, type ConsensusAnswer } from '../../../domain';
import { redactSecretsInText } from '../../../domain/secrets/secret-patterns';
import type { ToolContext } from '../../define-tool';
import type { AnswerGroup } from './agreement';
import { askOne, type OneCall } from './ask-one';

/** How much of each answer, and of the question, the judge reads. */
const MAX_JUDGED_ANSWER_CHARS = 2_000;
/** Room for the judge's JSON: a list of a few small numbers. */
const JUDGE_MAX_TOKENS = 256;
/** How much of the judge's reply the consensus keeps (its own step shows it). */
const JUDGE_REPLY_CHARS = 500;

const JUDGE_SYSTEM = [
  'You compare answers that several models gave to one question.',
  'You group the answers that say the same thing, however worded.',
  'You reply with one JSON object and nothing else.',
].join(' ');

/** The judge's verdict on a consensus: the groups to report, its call, and why its grouping was not used. */
export interface JudgedGroups {
  groups: AnswerGroup[];
  judge: ConsensusAnswer;
  problem?: string;
}

/**
 * The free-text judge (`createLlmTool({ consensusJudge })`): when the rules left two or more
 * groups of `text` answers (prose the rules cannot compare), one call of the judge model reads
 * them and says which say the same thing; those groups merge, and every text group it read is
 * marked `judge`. Its reply must name each text group exactly once (`{"groups": [[1, 3], [2]]}`);
 * a failed call or any other reply keeps the rules' groups, with the problem said. The judge's
 * spend is reported (`judge`) for the workflow to count. Undefined without two text groups: no call.
 */
export async function judgeTextGroups(
  question: string,
  groups: readonly AnswerGroup[],
  judge: Omit<OneCall, 'args' | 'maxChars'>,
  context: ToolContext,
): Promise<JudgedGroups | undefined> {
  const text = groups.flatMap((g, at) => (g.by === 'text' ? [at] : []));
  if (text.length < 2) return undefined;
  const call: OneCall = {
    ...judge,
    args: {
      prompt: judgePrompt(
        question,
        text.map((at) => groups[at]!.whole),
      ),
      system: JUDGE_SYSTEM,
    },
    maxTokens: Math.min(judge.maxTokens, JUDGE_MAX_TOKENS),
    maxChars: JUDGE_REPLY_CHARS,
  };
  let asked: Awaited<ReturnType<typeof askOne>>;
  try {
    asked = await askOne(call, context);
  } catch (err) {
    if (context.signal.aborted) throw context.signal.reason;
    const error = (err instanceof Error ? err.message : String(err)).slice(0, MAX_JUDGE_PROBLEM_CHARS);
    return {
      groups: [...groups],
      judge: { model: judge.target.model, alias: judge.alias, error },
      problem: kept(`the judge's call failed`),
    };
  }
  const spent: ConsensusAnswer = { ...asked.answer, durationMs: asked.durationMs };
  const read = readGrouping(asked.text, text.length);
  if (typeof read === 'string') return { groups: [...groups], judge: spent, problem: kept(read) };
  return { groups: regroup(groups, text, read), judge: spent };
}

function kept(why: string): string {
  return redactSecretsInText(`${why}; the rules' groups stand`).slice(0, MAX_JUDGE_PROBLEM_CHARS);
}

function judgePrompt(question: string, answers: readonly string[]): string {
  return [
    `The question:\n${cut(question)}`,
    `The answers:\n${answers.map((a, i) => `${i + 1}. ${cut(a)}`).join('\n')}`,
    [
      'Group the answers by what they say: two answers belong together when one could replace the other',
      'as the answer to the question. Every answer number appears in exactly one group.',
      'Reply with only the JSON object, in this shape: {"groups": [[1, 3], [2]]}',
    ].join(' '),
  ].join('\n\n');
}

function cut(text: string): string {
  return text.length <= MAX_JUDGED_ANSWER_CHARS ? text : `${text.slice(0, MAX_JUDGED_ANSWER_CHARS)}…`;
}

/** The judge's groups of answer numbers (1-based), each number exactly once; else why not, in words. */
function readGrouping(reply: string, count: number): number[][] | string {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  let json: unknown;
  try {
    json = start === -1 || end < start ? undefined : JSON.parse(reply.slice(start, end + 1));
  } catch {
    json = undefined;
  }
  const groups = (json as { groups?: unknown } | undefined)?.groups;
  if (!Array.isArray(groups)) return `the judge's reply holds no "groups" list`;
  const seen = new Set<number>();
  for (const group of groups) {
    if (!Array.isArray(group) || group.length === 0)
      return `the judge's reply has a group that is not a list of numbers`;
    for (const n of group) {
      if (!Number.isInteger(n) || n < 1 || n > count)
        return `the judge's reply names answer ${JSON.stringify(n)}, not one of 1 to ${count}`;
      if (seen.has(n)) return `the judge's reply names answer ${n} twice`;
      seen.add(n);
    }
  }
  if (seen.size !== count) return `the judge's reply leaves out some of the ${count} answers`;
  return groups as number[][];
}

/** The rules' groups with the judged text groups merged as the judge said, each in the place of its first. */
function regroup(groups: readonly AnswerGroup[], text: readonly number[], judged: readonly number[][]): AnswerGroup[] {
  const into = new Map<number, number>();
  for (const group of judged) {
    const places = group.map((n) => text[n - 1]!).sort((a, b) => a - b);
    for (const at of places) into.set(at, places[0]!);
  }
  const merged = new Map<number, AnswerGroup>();
  groups.forEach((g, at) => {
    const first = into.get(at);
    if (first === undefined) return void merged.set(at, g);
    const target = merged.get(first);
    if (target === undefined) merged.set(first, { ...g, aliases: [...g.aliases], by: 'judge' });
    else target.aliases.push(...g.aliases);
  });
  return [...merged.entries()].sort(([a], [b]) => a - b).map(([, g]) => g);
}
