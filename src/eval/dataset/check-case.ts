import type { z } from 'zod';
import { AgentInput } from '../../domain/run/agent-input';
import { EvalCase } from '../../domain/evaluation/eval-case';

/** A field problem of one case, before it has a line. */
export interface CaseIssue {
  path: ReadonlyArray<string | number>;
  message: string;
}

/**
 * Input fields a case may not set, and what to do instead. `strategy` is allowed: a case about
 * text ReAct needs it whatever the variant's model.
 */
const NOT_IN_A_CASE: Readonly<Record<string, string>> = {
  task: "the case's own task (with its context) is the run's task",
  model: 'the variant chooses the model (eval --model)',
  agent: 'the variant chooses the agent (eval --agent)',
  definition: 'the variant chooses the agent (eval --agent)',
  maxIterations: 'use the case\'s "limits.maxIterations"',
  tokenBudget: 'use the case\'s "limits.tokenBudget"',
  costBudgetUsd: 'use the case\'s "limits.costBudgetUsd"',
  runTimeoutMs: 'use the case\'s "limits.runTimeoutMs"',
  continued: 'runs set it themselves when they continue as new',
  fork: 'AgentClient.fork sets it; a case starts a new run',
  delegation: 'a parent run sets it on its sub-agents',
};

const PartialInput = AgentInput.partial();

/**
 * Checks one parsed case against EvalCase, then its `input` against AgentInput's fields, refusing
 * the fields the evaluation itself sets. Returns the case, or every issue found (never both).
 */
export function checkCase(raw: unknown): { ok: true; value: EvalCase } | { ok: false; issues: CaseIssue[] } {
  const parsed = EvalCase.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error, []) };
  const input = parsed.data.input;
  if (input === undefined) return { ok: true, value: parsed.data };
  const issues: CaseIssue[] = Object.keys(input)
    .filter((key) => Object.hasOwn(NOT_IN_A_CASE, key))
    .map((key) => ({ path: ['input', key], message: `a case may not set it: ${NOT_IN_A_CASE[key]}` }));
  // What may not be set is refused once, not checked as well.
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !Object.hasOwn(NOT_IN_A_CASE, key)));
  const checked = PartialInput.safeParse(rest);
  if (!checked.success) issues.push(...issuesOf(checked.error, ['input']));
  const known = new Set(Object.keys(AgentInput.shape));
  for (const key of Object.keys(input))
    if (!known.has(key)) issues.push({ path: ['input', key], message: "not a field of the run's input (AgentInput)" });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: parsed.data };
}

function issuesOf(error: z.ZodError, prefix: ReadonlyArray<string | number>): CaseIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.filter((p): p is string | number => typeof p !== 'symbol')],
    message: issue.message,
  }));
}

/** `expect.tools.calls[0].tool`: how a field path is written in problems. */
export function fieldText(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );
}
