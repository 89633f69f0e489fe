import { ApplicationFailure } from '@temporalio/workflow';
import { FailureType, type AgentInput, type DescribeTools, type ToolSpec, type ToolUseBlock } from '../../domain';
import { activities } from '../activity-proxies';
import { withBranching } from '../branching/branch-tool';
import { injectedToolNames } from '../core/injected-tools';
import { withSubAgents } from '../delegation/sub-agent-tools';
import { createToolCallValidator, type ToolCallCheck } from './validate-tool-call';

/**
 * A run's tool set: the worker's registered tools it names (or all of them), then the catalogue's
 * agents and the branching tool. Known from the start when a continued run carries it, the
 * agent's description brought it, or the worker described it before the first model call (text
 * ReAct and planning render tools before any call). Otherwise the first model call describes the
 * registered tools itself (`pending`: DESIGN.md, "describeTools before the first model call"), and
 * the set is complete once its reply is in (`described`): no lookup and no round trip before it.
 * Deterministic: the described specs are recorded with the reply.
 */
export class RunTools {
  private checker: ((call: ToolUseBlock) => ToolCallCheck) | undefined;

  private constructor(
    private readonly input: AgentInput,
    private readonly agentNames: readonly string[],
    private current: readonly ToolSpec[],
    private toDescribe: DescribeTools | undefined,
  ) {}

  /** A set known whole (carried by a continued run); checked for names taken by injected tools. */
  static known(input: AgentInput, specs: readonly ToolSpec[]): RunTools {
    return new RunTools(input, [], withoutInjectedNames(input, specs), undefined);
  }

  /** The registered tools described already (before the first call, or with the agent), with the run's own. */
  static described(input: AgentInput, registered: readonly ToolSpec[], agentNames: readonly string[]): RunTools {
    return new RunTools(input, agentNames, completeToolSet(input, registered, agentNames), undefined);
  }

  /**
   * The registered tools `names` (undefined: all the worker has), for the first model call to
   * describe, with the run's own; a run that names no registered tool has nothing to describe.
   */
  static describedByFirstCall(
    input: AgentInput,
    names: readonly string[] | undefined,
    agentNames: readonly string[],
  ): RunTools {
    const own = completeToolSet(input, [], agentNames);
    if (names?.length === 0) return new RunTools(input, agentNames, own, undefined);
    return new RunTools(input, agentNames, own, names ? { names: [...names] } : {});
  }

  /** The set as far as it is known: while `pending`, only the run's own tools. */
  get specs(): readonly ToolSpec[] {
    return this.current;
  }

  /** What the next model call describes itself, until a reply brought the specs. */
  get pending(): DescribeTools | undefined {
    return this.toDescribe;
  }

  /**
   * The registered tools a model call described (its reply's `describedTools`): the set is
   * complete from here on. Throws a non-retryable InvalidAgentInput when a registered tool takes
   * the name of an agent, the branching tool or an injected tool.
   */
  described(registered: readonly ToolSpec[]): void {
    if (!this.toDescribe) return;
    this.current = completeToolSet(this.input, registered, this.agentNames);
    this.toDescribe = undefined;
    this.checker = undefined;
  }

  /** Describes the pending registered tools with their own activity (a run switching to text ReAct, a handover before any reply). */
  async describeNow(): Promise<void> {
    if (!this.toDescribe) return;
    this.described(await activities.describeTools(this.toDescribe.names));
  }

  /** Checks a model's tool call against the set (validate-tool-call.ts), built again once the set is complete. */
  validate(call: ToolUseBlock): ToolCallCheck {
    this.checker ??= createToolCallValidator(
      this.current,
      injectedToolNames(this.input).map((t) => t.name),
    );
    return this.checker(call);
  }
}

/**
 * The registered tools, then the catalogue's agents, then the branching tool; a registered tool
 * named like any of them or like an injected tool is a configuration error (non-retryable).
 */
function completeToolSet(
  input: AgentInput,
  registered: readonly ToolSpec[],
  agentNames: readonly string[],
): ToolSpec[] {
  return withoutInjectedNames(input, withBranching(input, withSubAgents(input, registered, agentNames)));
}

/** The tools as they are, unless one takes an injected tool's name (a non-retryable InvalidAgentInput). */
function withoutInjectedNames(input: AgentInput, tools: readonly ToolSpec[]): ToolSpec[] {
  const injected = new Map(injectedToolNames(input).map((t) => [t.name, t.option]));
  const clash = tools.find((t) => injected.has(t.name));
  if (clash) {
    const message = `A registered tool is named "${clash.name}", like an injected tool; set ${injected.get(clash.name)} to another name.`;
    throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message, nonRetryable: true });
  }
  return [...tools];
}
