/** A branch's heading in the branch judge's prompt (workflows/branching/branch-judge-prompt.ts): `Branch 2 ("label"), grounded, …`. */
const BRANCH_LINE = /^Branch (\d+) \("(.*)"\), ([a-z_ ]+),/gm;

/**
 * The offline model as branch judge: the first branch, in order, whose answer is grounded wins;
 * without one, the first listed. Deterministic: the same prompt, the same reply.
 */
export function offlineBranchJudgeReply(prompt: string): string {
  const branches = [...prompt.matchAll(BRANCH_LINE)].map((m) => ({
    index: Number(m[1]),
    label: m[2]!,
    grounding: m[3]!,
  }));
  const grounded = branches.find((b) => b.grounding === 'grounded');
  const winner = grounded ?? branches[0];
  if (!winner) return '{}';
  const reason = grounded
    ? `branch ${winner.index} ("${winner.label}") is the first whose answer is grounded in its own tool results`
    : `no answer is fully grounded, so the first finished branch (${winner.index}) goes on`;
  return JSON.stringify({ winner: winner.index, reason });
}
