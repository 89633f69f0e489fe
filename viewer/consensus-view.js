// How the models of an ask_model consensus split, in the words of the CLI and the chain markdown
// (src/domain/model/consensus-summary.ts): the agreement, then each group with its models, its
// answer (cut) and what it was compared as (or that the judge model grouped it), then failures
// and why a judge's grouping was not used. Undefined for any other result.

const ANSWER_CHARS = 60;
const AS_WORDS = {
  verdict: 'as a yes/no',
  number: 'as a number',
  date: 'as a date',
  set: 'as a set',
  text: 'as text',
  judge: 'grouped by the judge',
};

export function consensusText(result) {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const { agreement, groups, groupedBy, judgeProblem, answers } = result;
  if (typeof agreement !== 'number' || agreement < 0 || agreement > 1) return undefined;
  if (!Array.isArray(groups) || !groups.every((g) => Array.isArray(g) && g.every((m) => typeof m === 'string')))
    return undefined;
  if (!Array.isArray(answers) || !answers.every((a) => a && typeof a.model === 'string')) return undefined;
  const answerOf = new Map(answers.map((a) => [a.model, typeof a.answer === 'string' ? a.answer : undefined]));
  const parts = [`agreement ${groups[0]?.length ?? 0} of ${answers.length}${agreement === 1 ? ' (unanimous)' : ''}`];
  groups.forEach((models, i) => {
    const answer = answerOf.get(models[0] ?? '') ?? '';
    const cut = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS)}…` : answer;
    const as = Array.isArray(groupedBy) ? AS_WORDS[groupedBy[i]] : undefined;
    parts.push(`${models.join(', ')}: ${JSON.stringify(cut)}${as ? ` (${as})` : ''}`);
  });
  const failed = answers.filter((a) => typeof a.error === 'string').map((a) => a.model);
  if (failed.length > 0) parts.push(`failed: ${failed.join(', ')}`);
  if (typeof judgeProblem === 'string') parts.push(`judge: ${judgeProblem}`);
  return parts.join(' · ');
}
