import { ApplicationFailure } from '@temporalio/workflow';
import {
  BRANCHING_TOOL_LEAD,
  FailureType,
  MAX_BRANCH_CONTEXT_CHARS,
  MAX_BRANCH_CRITERIA_CHARS,
  MAX_BRANCH_INSTRUCTIONS_CHARS,
  MAX_BRANCH_LABEL_CHARS,
  type AgentInput,
  type BranchingSettings,
  type ToolSpec,
} from '../../domain';
import { MAX_TASK_BYTES, utf8Bytes } from '../../domain/run/payload-size';

/** A branch runs as a child run; without a run time limit its call may wait this long. */
const BRANCH_CALL_TIMEOUT_MS = 3_600_000;

/** One approach the model asked to try, trimmed to its bounds. */
export interface Approach {
  label: string;
  instructions: string;
}

/** The injected branching tool: two to `maxBranches` approaches, each a label and what to do differently. */
export function branchingSpec(settings: BranchingSettings): ToolSpec {
  const judged = settings.choose === 'judge';
  return {
    name: settings.toolName,
    type: 'sub_agent',
    description:
      `${BRANCHING_TOOL_LEAD} (${settings.maxBranches === 2 ? 'two' : `two to ${settings.maxBranches}`}), ` +
      'each as a separate run of you that starts from what you know so far and works on its own. ' +
      (judged
        ? 'When all have ended, the best finished answer by your criteria is chosen and comes back to you, with how the others ended. '
        : 'The first to finish wins and the others are stopped; its answer comes back to you. ') +
      'Use it when you are unsure which way will work and trying them one after another would cost more.',
    inputSchema: {
      type: 'object',
      properties: {
        approaches: {
          type: 'array',
          minItems: 2,
          maxItems: settings.maxBranches,
          items: {
            type: 'object',
            properties: {
              label: {
                type: 'string',
                maxLength: MAX_BRANCH_LABEL_CHARS,
                description: 'A short name for the approach.',
              },
              instructions: {
                type: 'string',
                maxLength: MAX_BRANCH_INSTRUCTIONS_CHARS,
                description: 'What this branch should do differently from the others.',
              },
            },
            required: ['label', 'instructions'],
            additionalProperties: false,
          },
        },
        criteria: {
          type: 'string',
          maxLength: MAX_BRANCH_CRITERIA_CHARS,
          description: 'What makes one answer better than another (used to choose the winner).',
        },
      },
      required: ['approaches'],
      additionalProperties: false,
    },
    timeoutMs: BRANCH_CALL_TIMEOUT_MS,
    retry: { maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2 },
    visibility: 'full',
  };
}

/** The run's tools with the branching tool after them when the run branches; a registered tool of the same name is a configuration error. */
export function withBranching(input: AgentInput, tools: readonly ToolSpec[]): ToolSpec[] {
  const settings = input.branching;
  if (!settings) return [...tools];
  if (tools.some((t) => t.name === settings.toolName)) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidAgentInput,
      message: `A tool or agent is named "${settings.toolName}", like the branching tool; set branching.toolName to another name.`,
      nonRetryable: true,
    });
  }
  return [...tools, branchingSpec(settings)];
}

/** The call's approaches and criteria, read again after validation: strings only, cut to their bounds, at most `max`. */
export function readBranchCall(
  args: Record<string, unknown>,
  max: number,
): { approaches: Approach[]; criteria: string } {
  const listed = Array.isArray(args['approaches']) ? args['approaches'] : [];
  const approaches = listed.slice(0, max).flatMap((a: unknown) => {
    if (typeof a !== 'object' || a === null) return [];
    const { label, instructions } = a as Record<string, unknown>;
    if (typeof label !== 'string' || typeof instructions !== 'string') return [];
    return [
      {
        label: label.trim().slice(0, MAX_BRANCH_LABEL_CHARS) || 'approach',
        instructions: instructions.trim().slice(0, MAX_BRANCH_INSTRUCTIONS_CHARS),
      },
    ];
  });
  const criteria =
    typeof args['criteria'] === 'string' ? args['criteria'].trim().slice(0, MAX_BRANCH_CRITERIA_CHARS) : '';
  return { approaches, criteria };
}

/**
 * A branch's task: the run's own task, what the run has found so far (its newest observations,
 * bounded), and the approach. A branch is a fresh run of the same agent, so this is all it
 * knows of the parent's conversation.
 */
export function branchTask(
  task: string,
  known: readonly string[],
  approach: Approach,
  index: number,
  of: number,
): string {
  const found: string[] = [];
  let room = MAX_BRANCH_CONTEXT_CHARS;
  for (const text of [...known].reverse()) {
    if (room <= 0) break;
    const kept = text.slice(0, room);
    found.unshift(`- ${kept}${kept.length < text.length ? ' […]' : ''}`);
    room -= kept.length;
  }
  const rest = [
    '',
    ...(found.length ? ['What has been found so far (tool results, newest last):', ...found, ''] : []),
    `You are branch ${index} of ${of}, each trying a different approach. Yours: "${approach.label}".`,
    approach.instructions,
    'Follow this approach. If it does not work, say so plainly in your answer rather than switching to another.',
  ].join('\n');
  // A task near the limit leaves room for the branch's own words: its end is cut, never the approach.
  return `${withinBytes(task, MAX_TASK_BYTES - utf8Bytes(rest) - utf8Bytes(CUT_MARK) - 1)}\n${rest}`;
}

const CUT_MARK = ' […]';

/** `text` cut to at most `bytes` UTF-8 bytes (with a mark when cut); each pass drops at least the excess. */
function withinBytes(text: string, bytes: number): string {
  if (utf8Bytes(text) <= bytes) return text;
  let cut = text.slice(0, Math.max(0, bytes));
  for (let over = utf8Bytes(cut) - bytes; over > 0; over = utf8Bytes(cut) - bytes) cut = cut.slice(0, -over);
  return `${cut}${CUT_MARK}`;
}
