import { BRANCHING_TOOL_LEAD, type ModelRequest, type ModelTool } from '../domain';

/** One tool call of the conversation so far, with its observation once it came back. */
export interface SeenCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  result?: { content: string; isError: boolean };
}

/** The tools Thoughtline injected into this run, by their run's names; absent when not offered. */
export interface ControlTools {
  finish?: string;
  giveUp?: string;
  question?: string;
  update?: string;
  /** The branching tool (AgentInput.branching). */
  branch?: string;
}

/** What the offline model reads of one request: the task, the tools, and what happened so far. */
export interface RequestView {
  task: string;
  /** Answers people gave to the model's questions, in order. */
  answers: string[];
  /** The run's own tools (sub-agents included), without the injected ones. */
  tools: ModelTool[];
  control: ControlTools;
  /** In a branch's run: the tool its approach starts with (branch-move.ts), when offered. */
  approach?: string;
  /** The most approaches the branching tool takes (its schema's `maxItems`); 0 when it is not offered. */
  maxBranches: number;
  calls: SeenCall[];
  /** Every user text and tool result, oldest first (plan notes arrive in either). */
  notes: string[];
}

/** The loop's system prompt names the finish and give-up tools (src/workflows/loop/prompt.ts). */
const FINISH_NAME = /call the "([^"]+)" tool with it as "result"/;
const GIVE_UP_NAME = /call the "([^"]+)" tool with the reason/;
/** The plan note names the update tool (src/workflows/planning/plans/plan-prompts.ts). */
const UPDATE_NAME = /Report progress with the "([^"]+)" tool/;
/** The question tool's description (src/workflows/loop/prompt.ts). */
const QUESTION_DESCRIPTION = 'Ask the person supervising this run';
/** How a person's answer comes back (src/workflows/people/ask-person.ts). */
const ANSWER = /^Answer from [^:]*: ([\s\S]*)$/;

/** Where a branch's own words start in its task, and the tool its approach starts with (workflows/branching/branch-tool.ts, branch-move.ts). */
const BRANCH_PREAMBLE = /\n\n(?:What has been found so far|You are branch \d+ of \d+)[\s\S]*$/;
const BRANCH_START = /^Start with the (\S+) tool\.$/m;

/** Pure: the same request always reads the same. */
export function readRequest(request: ModelRequest): RequestView {
  const offered = new Set(request.tools.map((t) => t.name));
  const named = (pattern: RegExp, text: string): string | undefined => {
    const name = pattern.exec(text)?.[1];
    return name !== undefined && offered.has(name) ? name : undefined;
  };
  const calls: SeenCall[] = [];
  const notes: string[] = [];
  const byId = new Map<string, SeenCall>();
  let task: string | undefined;
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'text' && message.role === 'user') {
        if (task === undefined) task = block.text;
        else notes.push(block.text);
      } else if (block.type === 'tool_use') {
        const call: SeenCall = { id: block.id, name: block.name, input: block.input };
        calls.push(call);
        byId.set(block.id, call);
      } else if (block.type === 'tool_result') {
        const call = byId.get(block.toolUseId);
        if (call) call.result = { content: block.content, isError: block.isError };
        notes.push(block.content);
      }
    }
  }
  const question = request.tools.find((t) => t.description.startsWith(QUESTION_DESCRIPTION))?.name;
  const brancher = request.tools.find((t) => t.description.startsWith(BRANCHING_TOOL_LEAD));
  const branch = brancher?.name;
  const update = [...notes]
    .reverse()
    .map((n) => named(UPDATE_NAME, n))
    .find((n) => n !== undefined);
  const control: ControlTools = {
    ...optional('finish', named(FINISH_NAME, request.system)),
    ...optional('giveUp', named(GIVE_UP_NAME, request.system)),
    ...optional('question', question),
    ...optional('update', update),
    ...optional('branch', branch),
  };
  const injected = new Set(Object.values(control));
  const answers = calls
    .filter((c) => c.name === control.question && c.result && !c.result.isError)
    .map((c) => ANSWER.exec(c.result!.content)?.[1] ?? c.result!.content);
  // A branch works the parent's task; its approach names the tool to use.
  const preamble = BRANCH_PREAMBLE.exec(task ?? '');
  const approach = preamble ? BRANCH_START.exec(preamble[0])?.[1] : undefined;
  return {
    task: preamble ? task!.slice(0, preamble.index) : (task ?? ''),
    ...(approach !== undefined && offered.has(approach) ? { approach } : {}),
    answers,
    tools: request.tools.filter((t) => !injected.has(t.name)),
    control,
    maxBranches: maxItems(brancher),
    calls,
    notes,
  };
}

function optional<K extends keyof ControlTools>(key: K, value: string | undefined): Partial<ControlTools> {
  return value === undefined ? {} : { [key]: value };
}

/** The branching tool's `approaches.maxItems`, read defensively; 0 without the tool. */
function maxItems(tool: ModelTool | undefined): number {
  const approaches = (tool?.inputSchema as { properties?: { approaches?: { maxItems?: unknown } } } | undefined)
    ?.properties?.approaches;
  return typeof approaches?.maxItems === 'number' ? approaches.maxItems : 0;
}
