import type { AgentResult, ReasoningStep } from '../../domain';

/** Most characters of the chain the judge reads; a longer chain keeps its head and tail, cut with a marker. */
export const MAX_JUDGE_CHAIN_CHARS = 24_000;
/** Most characters of one observation or argument list in the judge's chain text. */
const MAX_ENTRY_CHARS = 2_000;

/** Seed 001's reasoning coherence (§4.1, §6): the default rubric. */
export const COHERENCE_RUBRIC = [
  'Reasoning coherence: thoughts logically connect to the actions that follow them.',
  '- Each thought justifies the action it leads to, and references the observations before it where relevant.',
  '- Thoughts show a logical progression toward the task; failed actions are not repeated without a change.',
  '- After a tool error, a thought analyses it and the agent tries another way or ends gracefully.',
  'Score the share of steps whose thought coherently leads to its action (1 = every step, 0 = none).',
].join('\n');

export const JUDGE_SYSTEM = [
  "You grade an AI agent's run against a rubric. You read the task, the run's chain (thoughts, tool",
  'calls with their results, the final answer) and the rubric. Reply with one JSON object and',
  'nothing else: {"score": <number from 0 to 1>, "why": "<one or two sentences>"}.',
].join(' ');

/** The judge's prompt for one run: the task, its chain (bounded) and the rubric. Pure. */
export function judgePrompt(task: string, result: AgentResult, rubric: string = COHERENCE_RUBRIC): string {
  return [
    '<task>',
    task,
    '</task>',
    '',
    '<chain>',
    boundedChain(result),
    '</chain>',
    '',
    '<rubric>',
    rubric,
    '</rubric>',
    '',
    'Reply with the JSON object only.',
  ].join('\n');
}

/** The chain as lines of text; past MAX_JUDGE_CHAIN_CHARS, its head and tail with a marker saying what was left out. */
export function boundedChain(result: AgentResult): string {
  const lines = result.chain.steps.flatMap(stepLines);
  lines.push(`Final answer (${result.terminationReason}): ${result.finalAnswer}`);
  const text = lines.join('\n');
  if (text.length <= MAX_JUDGE_CHAIN_CHARS) return text;
  const head = Math.floor(MAX_JUDGE_CHAIN_CHARS * (2 / 3));
  const tail = MAX_JUDGE_CHAIN_CHARS - head;
  const left = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${left} characters of the chain left out …]\n${text.slice(text.length - tail)}`;
}

function stepLines(step: ReasoningStep): string[] {
  switch (step.type) {
    case 'thinking':
      return step.thought.trim() ? [`Thought: ${step.thought.trim()}`] : [];
    case 'tool_call':
      // Model calls are the agent's own turns, not actions it took.
      if (step.toolCall.toolType === 'llm') return [];
      return [`Action: ${step.toolCall.toolName} ${entry(step.toolCall.arguments)}`];
    case 'tool_result': {
      const { success, result, error } = step.toolResult;
      return [success ? `Observation: ${entry(result)}` : `Observation (error): ${entry(error ?? result)}`];
    }
    case 'synthesis':
      return [`Conclusion: ${step.synthesis.conclusion}`];
    default:
      return [];
  }
}

function entry(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > MAX_ENTRY_CHARS
    ? `${text.slice(0, MAX_ENTRY_CHARS)} [… ${text.length - MAX_ENTRY_CHARS} more]`
    : text;
}
