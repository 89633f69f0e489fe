import type { ReasoningChain } from '../chain/chain';
import { reactTrace } from '../chain/react-trace';
import { DEFAULT_FINISH_TOOL } from '../run/constants';
import { redactSecretsInText } from '../secrets/secret-patterns';
import { AgentExample, MAX_EXAMPLE_STEPS, examplesBytes, type AgentExampleStep } from './agent-definition';

/** A step before the schema has checked that its arguments are JSON. */
type AgentExampleStepInit = Omit<AgentExampleStep, 'action'> & { action: { tool: string; arguments: unknown } };

/**
 * A finished run's chain as a few-shot example for an agent definition: its task, its tool steps
 * as a ReAct trace (each thought, tool and arguments, observation) and its final answer. Bounded:
 * texts are cut, secrets redacted, at most MAX_EXAMPLE_STEPS steps and MAX_EXAMPLE_FROM_CHAIN_BYTES
 * in all; a run that did not end with a final answer, or took more steps, gives none, and says why.
 * Pure. The chain's tool results are whatever the tools returned: read the example before you ship it.
 */

/** Most one example made from a chain adds to a definition's examples (a quarter of their limit). */
export const MAX_EXAMPLE_FROM_CHAIN_BYTES = 8 * 1024;
/** Characters kept of the task and the answer; of each thought and observation. */
const MAX_TASK_CHARS = 1_000;
const MAX_STEP_TEXT_CHARS = 500;
/** Characters kept of each string in a call's arguments, and how deep they are read. */
const MAX_ARGUMENT_CHARS = 300;
const MAX_ARGUMENT_DEPTH = 8;

export type ExampleFromChain = { example: AgentExample } | { refused: string };

export function exampleFromChain(
  chain: Pick<ReasoningChain, 'task' | 'steps'>,
  finishToolName: string = DEFAULT_FINISH_TOOL,
): ExampleFromChain {
  const trace = reactTrace(chain, finishToolName);
  const last = trace.at(-1);
  if (!last || last.call || last.action !== 'Final Answer')
    return { refused: `the run did not end with a final answer${last && !last.call ? ` (${last.action})` : ''}.` };
  const calls = trace.slice(0, -1);
  if (calls.length > MAX_EXAMPLE_STEPS)
    return { refused: `the run took ${calls.length} tool steps; an example shows at most ${MAX_EXAMPLE_STEPS}.` };
  const steps = calls.flatMap((s): AgentExampleStepInit[] =>
    s.call
      ? [
          {
            ...(s.thought ? { thought: text(s.thought, MAX_STEP_TEXT_CHARS) } : {}),
            action: { tool: s.call.tool, arguments: safeArguments(s.call.arguments) },
            observation: text(s.observation, MAX_STEP_TEXT_CHARS),
          },
        ]
      : [],
  );
  const parsed = AgentExample.safeParse({
    task: text(chain.task, MAX_TASK_CHARS),
    ...(steps.length ? { steps } : {}),
    answer: text(last.observation, MAX_TASK_CHARS),
  });
  if (!parsed.success) return { refused: `the run's steps do not make an example: ${parsed.error.issues[0]?.message}` };
  const bytes = examplesBytes([parsed.data]);
  if (bytes > MAX_EXAMPLE_FROM_CHAIN_BYTES)
    return {
      refused: `the example would take ${bytes} bytes; one made from a run takes at most ${MAX_EXAMPLE_FROM_CHAIN_BYTES}.`,
    };
  return { example: parsed.data };
}

/** Trimmed, secrets redacted, cut to `max` characters. */
function text(value: string, max: number): string {
  const redacted = redactSecretsInText(value.trim());
  return redacted.length <= max ? redacted : `${redacted.slice(0, max - 1)}…`;
}

/** The arguments with every string redacted and cut, nested values read to a depth, the rest dropped. */
function safeArguments(args: Record<string, unknown>): Record<string, unknown> {
  const read = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value, MAX_ARGUMENT_CHARS);
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    if (depth >= MAX_ARGUMENT_DEPTH) return null;
    if (Array.isArray(value)) return value.map((v) => read(v, depth + 1));
    if (typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, read(v, depth + 1)]));
    return null;
  };
  return read(args, 0) as Record<string, unknown>;
}
