import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import { z } from 'zod';
import { MAX_BRANCHES, PlanTemplateName, SubAgentDefinition, type AgentInputInit } from '../../domain';
import type { AgentContext } from '../../domain/run/agent-context';
import type { WorkflowTemplate } from '../../domain/planning/workflow-template';
import { UsageError } from '../spec/usage-error';

/** Largest `--agents` file read: a catalogue of definitions, far smaller. */
const MAX_AGENTS_FILE_BYTES = 4 * 1024 * 1024;

/** `run --agents FILE`: a JSON object of agents by tool name, checked before anything starts. */
export function readAgentsFile(file: string): Record<string, SubAgentDefinition> {
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFile(file, MAX_AGENTS_FILE_BYTES).toString('utf8'));
  } catch (err) {
    if (err instanceof RegularFileError) throw new UsageError(`--agents ${file}: ${err.message}.`);
    throw new UsageError(`--agents ${file}: not readable JSON (${(err as Error).message}).`);
  }
  const parsed = z
    .record(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name: letters, digits, _ or -'), SubAgentDefinition)
    .safeParse(raw);
  if (!parsed.success) throw new UsageError(`--agents ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Refuses a catalogue whose agents name tools nobody serves: a sub-agent's `tools` may name the
 * worker's registered tools and the catalogue's agents, nothing else. Checked before the run
 * starts; the run itself would only find out when that sub-agent is called, children later.
 */
export function checkAgentTools(
  agents: Readonly<Record<string, { tools?: readonly string[] | undefined }>>,
  registered: readonly string[],
  file = 'the --agents file',
): void {
  const known = new Set([...registered, ...Object.keys(agents)]);
  const problems = Object.entries(agents).flatMap(([name, agent]) =>
    (agent.tools ?? []).filter((tool) => !known.has(tool)).map((tool) => `"${name}" names the tool "${tool}"`),
  );
  if (problems.length === 0) return;
  throw new UsageError(
    `${file}: ${problems.join('; ')}, which this run's worker does not serve. ` +
      `Known tools: ${[...registered].join(', ') || 'none'}; agents in the file: ${Object.keys(agents).join(', ')}.`,
  );
}

export interface RunExtraFlags {
  agents?: string | undefined;
  plan?: boolean | undefined;
  template?: string | undefined;
  allowQuestions?: boolean | undefined;
  /** `--branches N`: agent-driven branching with at most N approaches a call. */
  branches?: string | undefined;
  /** `--workflow`, read and checked (run-inputs/read-workflow-file.ts): the plan's steps as written. */
  workflow?: WorkflowTemplate | undefined;
  /** `--files`/`--context`, read and bounded (run-inputs/read-run-inputs.ts). */
  context?: AgentContext | undefined;
  /** The tools the run's worker registers, when known in this process: `--agents` is checked against them. */
  registeredTools?: readonly string[] | undefined;
}

/** The input fields `run` adds from its flags: a catalogue of sub-agents, planning, a template or a workflow, questions, branching, context. */
export function runExtras(flags: RunExtraFlags): Partial<AgentInputInit> {
  // Both say what the plan's steps are: one way to say one thing.
  if (flags.workflow && flags.template !== undefined)
    throw new UsageError('--workflow and --template both give the plan its steps; give one of them.');
  const template = flags.template === undefined ? undefined : PlanTemplateName.safeParse(flags.template);
  if (template && !template.success)
    throw new UsageError(`--template must be one of ${PlanTemplateName.options.join(', ')}.`);
  const agents = flags.agents ? readAgentsFile(flags.agents) : undefined;
  if (agents && flags.registeredTools) checkAgentTools(agents, flags.registeredTools, `--agents ${flags.agents}`);
  return {
    ...(agents ? { agents } : {}),
    ...(flags.plan || template || flags.workflow ? { planning: planningOf(template?.data, flags.workflow) } : {}),
    ...(flags.allowQuestions ? { allowQuestions: true } : {}),
    ...(flags.branches !== undefined ? { branching: { maxBranches: branchCount(flags.branches) } } : {}),
    ...(flags.context ? { context: flags.context } : {}),
  };
}

const planningOf = (template: PlanTemplateName | undefined, workflow: WorkflowTemplate | undefined) => ({
  ...(template ? { template } : {}),
  ...(workflow ? { workflow } : {}),
});

/** `--branches N`: a whole number from 2 to MAX_BRANCHES. */
function branchCount(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2 || n > MAX_BRANCHES)
    throw new UsageError(`--branches must be a whole number from 2 to ${MAX_BRANCHES}, not "${text}".`);
  return n;
}
