import type { McpConfigInit } from '../../../domain/tools/mcp-config';
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { createReplyRecorder } from '../../../activities/recording';
import { recordToolCalls } from '../../../tools/recorded-tools';
import type { ToolDefinition } from '../../../tools/define-tool';
import {
  registeredStrategy,
  resolveModel,
  type AgentInputInit,
  type AgentResult,
  type ModelReply,
} from '../../../domain';
import { viewResult } from '../../../domain/chain/chain-view';
import { AgentClient, type AgentHandle } from '../../../client/agent-client';
import { identityOfChain } from '../../../client/runs/run-lens';
import { INTERRUPTED_EXIT_CODE, watchInterruption, type Interruption } from '../../../client/follow/interruption';
import { placeRun, type RunPlacement } from '../../../client/follow/run-placement';
import { watchForStall } from '../../../client/follow/stall-watch';
import { firstTaskTaken, TAKE_GRACE_MS } from '../../../client/follow/first-task-taken';
import { resumeAdvice, stallAdvice } from '../../../client/follow/worker-advice';
import { readErrorText } from '../../../client/errors/read-error-text';
import { renderSummary } from '../../render/render-step';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { checkAgentTools } from '../../run-inputs/run-extras';
import { runSignedDecisions } from '../../setup/decision-keyring';
import {
  BUILT_IN_TOOLS,
  connectOrStart,
  readingFileTools,
  log,
  startWorker,
  webUiLink,
  type Connected,
  type RunningWorker,
} from '../../setup/runtime';
import { followOnScreen } from '../../reading/watch-printer';
import { startStandingWorker } from '../../setup/standing-worker';
import type { Followed } from '../../dashboard/show-dashboard';
import { actingPerson } from '../people-in-the-loop/decide-call';
import { localModelOf } from '../../setup/local-model-setup';
import { workflowBuildId } from '../../setup/cached-workflow-bundle';
import { isOtherBuild } from '../../setup/worker-identity';
import { passedOverText } from '../../setup/passed-over-text';
import { cliName } from '../../../client/follow/cli-name';
import { FAILURE_CONVERTER_PATH } from '../../../codec/data-converter';

export interface RunOptions {
  task: string;
  json: boolean;
  /**
   * False (`--no-worker`): the run goes to a worker already polling the task queue, and fails
   * fast when none does. True (default): to such a worker when one polls, else to this process's
   * own worker, which polls a task queue of its own so that it never competes with another.
   */
  embeddedWorker: boolean;
  /** Always this process's own worker, even when another polls the task queue (the demo). */
  ownWorker?: boolean;
  maxIterations?: number;
  model?: string;
  /** `--strategy`: text ReAct for a model without tool calling; default the registry entry's, else native. */
  strategy?: 'native' | 'react-text';
  /** Start the agent a worker registered under this id (`run --agent`); only the name is sent. */
  agent?: string;
  workflowId?: string;
  /** Append this run's model replies and tool executions to a JSONL file, to replay it offline; runs this process's own worker. */
  recordTo?: string;
  /** MCP servers (a desktop-client config file's contents) for this process's own worker; runs it. */
  mcp?: McpConfigInit;
  /**
   * `--files`/`--files-root`: the directory the context files were read from, absolute. This
   * process's worker then also serves the reading file tools rooted there; a standing worker's are its own.
   */
  filesRoot?: string;
  /**
   * The live dashboard on a terminal that suits it (`run`'s default; `--no-dashboard` turns it off);
   * otherwise, and for the demo, one line per step.
   */
  dashboard?: boolean;
  /** More input: sub-agents, planning (from `--agents`, `--plan`, `--template`, or the team demo). */
  extra?: Partial<AgentInputInit>;
}

/** How long Ctrl-C waits for this process's worker to stop before the process exits anyway. */
const WORKER_STOP_MS = 5_000;

/**
 * Starts one agent, prints its steps as they land, and returns its result. Ctrl-C stops
 * following (and this process's worker), says how to resume, and exits the process with 130.
 */
export async function runTask(options: RunOptions, connected?: Connected): Promise<AgentResult> {
  const interruption = watchInterruption();
  try {
    return await runFollowed(options, connected ?? (await connectOrStart()), interruption);
  } finally {
    interruption.dispose();
  }
}

async function runFollowed(options: RunOptions, c: Connected, interruption: Interruption): Promise<AgentResult> {
  const workflowId = options.workflowId ?? `agent-${randomUUID()}`;
  if (options.recordTo && !options.embeddedWorker)
    throw new Error('--record needs the embedded worker (drop --no-worker).');
  const placement = await placeRun(c.agents.client, c.config.taskQueue, {
    standingOnly: !options.embeddedWorker,
    // The local model runs in this process's worker; a standing worker may not have it.
    ownOnly: Boolean(options.recordTo || options.ownWorker || options.mcp || localModelOf(options.model)),
    // Another checkout's (or version's) CLI worker on the same queue would run this run with its own code.
    isForeign: isOtherBuild(workflowBuildId(c.config.encryptionKeys ? FAILURE_CONVERTER_PATH : undefined)),
  });
  if (placement.worker === 'own' && placement.passedOver)
    log(passedOverText('this run', placement.passedOver, c.config.taskQueue, placement.taskQueue));
  // This process's worker serves the built-in tools: a sub-agent naming any other is refused before
  // the run starts. A standing worker's tools are not known here; its run finds out itself.
  const fileTools = placement.worker === 'own' && options.filesRoot ? readingFileTools(options.filesRoot) : [];
  if (placement.worker === 'own' && options.extra?.agents)
    checkAgentTools(
      options.extra.agents,
      [...BUILT_IN_TOOLS, ...fileTools].map((t) => t.name),
      'the --agents file',
    );
  // This process's worker registers no agents: a run by name needs a standing worker that does.
  if (options.agent !== undefined && placement.worker === 'own')
    throw new Error(
      `--agent ${options.agent} needs a worker that registers agents, and none polls task queue "${placement.taskQueue}": start one with\n  ${cliName()} worker --tools FILE\nwhere FILE exports "agents" (defineAgent(...) results).`,
    );
  if (placement.worker === 'standing' && options.embeddedWorker) {
    log(
      `a worker already polls task queue "${placement.taskQueue}": the run goes to it, with its tools and model, and this process runs none (--record runs its own).`,
    );
  }
  if (placement.worker === 'standing' && options.filesRoot)
    log(
      `the files were read under ${options.filesRoot}; the run's file tools, if any, are that worker's, rooted where it says.`,
    );
  const recorder = options.recordTo ? countingRecorder(options.recordTo, workflowId, c) : undefined;
  let worker =
    placement.worker === 'own'
      ? await startWorker(
          { ...c, config: { ...c.config, taskQueue: placement.taskQueue, ...runModel(options) } },
          fileTools,
          {
            ...(recorder ? { onModelReply: recorder.onModelReply, wrapTools: recorder.wrapTools } : {}),
            ...(options.mcp ? { mcp: options.mcp } : {}),
          },
        )
      : undefined;
  const out = options.json ? process.stderr : process.stdout;
  try {
    const handle = await startRun(
      new AgentClient({ client: c.agents.client, taskQueue: placement.taskQueue }),
      runInput(options, c),
      workflowId,
    );
    out.write(`Started ${handle.workflowId}\n`);
    interruption.arm();
    if (placement.worker === 'standing' && options.embeddedWorker)
      worker = await serveIfUntaken(c, handle.workflowId, fileTools, options);
    const link = webUiLink(c.server, handle.workflowId);
    if (link) out.write(`Web UI: ${link}\n\n`);
    const outcome = await follow(options, c, handle.workflowId, worker, interruption);
    if (outcome.kind !== 'ended')
      return await stopFollowing(outcome, {
        workflowId,
        placement,
        worker,
        interruption,
        configuredQueue: c.config.taskQueue,
      });
    const { result } = outcome;
    // The auditor's view: every step, secrets redacted, as everywhere else a result is shown.
    if (options.json) writeForStdout(`${JSON.stringify(viewResult(result, 'auditor'), null, 2)}\n`);
    // The developer's view, as its steps were followed: the ending and why come from it.
    else
      writeSafe(
        out,
        `\n${renderSummary(viewResult(result, 'developer', c.agents.lensOf(identityOfChain(result.chain), 'developer')))}\n`,
      );
    if (recorder) {
      out.write(
        recorder.count() > 0 || recorder.toolCount() > 0
          ? `Recorded ${recorder.count()} model replies and ${recorder.toolCount()} tool executions of ${workflowId} to ${options.recordTo}\n`
          : `No model reply of ${workflowId} was recorded; nothing was written to ${options.recordTo}.\n`,
      );
    }
    return result;
  } finally {
    await worker?.shutdown();
  }
}

/**
 * The server lists a worker for up to a minute and a half after it stops, so a run placed on the
 * configured queue may have nobody to take it. When no worker takes its first task within
 * TAKE_GRACE_MS, this process serves the queue as `thoughtline worker` would (versioned, made
 * current: same build, same version), with its built-in tools, until the run ends. Costs nothing
 * when a worker took it: DescribeWorkflowExecution calls only.
 */
async function serveIfUntaken(
  c: Connected,
  workflowId: string,
  fileTools: readonly ToolDefinition[],
  options: RunOptions,
): Promise<RunningWorker | undefined> {
  if (await firstTaskTaken(c.agents.client, workflowId)) return undefined;
  log(
    `no worker took ${workflowId} within ${TAKE_GRACE_MS / 1_000} s: the worker last seen on task queue "${c.config.taskQueue}" has stopped. This process serves the queue with its own worker (built-in tools) until the run ends, as "${cliName()} worker" would.`,
  );
  return startStandingWorker({ ...c, config: { ...c.config, ...runModel(options) } }, fileTools);
}

type FollowOutcome =
  { kind: 'ended'; result: AgentResult } | { kind: 'interrupted' } | { kind: 'worker-stopped'; error: string };

/** Follows the run until it ends, Ctrl-C, or this process's worker stops; warns when nobody takes its tasks. */
async function follow(
  options: RunOptions,
  c: Connected,
  workflowId: string,
  worker: RunningWorker | undefined,
  interruption: Interruption,
): Promise<FollowOutcome> {
  // On the dashboard the advice goes in its box: a line logged under it would be drawn over.
  let screen: Followed | undefined;
  const stopStallWatch = watchForStall(c.agents.client, workflowId, ({ waitedMs, taskQueue }) => {
    const advice = stallAdvice(workflowId, waitedMs, taskQueue, c.config.taskQueue);
    if (!screen?.notice(advice)) log(advice);
  });
  const out = options.json ? process.stderr : process.stdout;
  // The dashboard reads the run's status at most once a second (dashboard/show-dashboard.ts).
  const dashboard = options.dashboard
    ? { workflowId, goal: options.task, readStatus: (id: string) => c.agents.status(id) }
    : undefined;
  screen = options.json ? undefined : followOnScreen(c.agents.follow(workflowId), out, dashboard);
  const following = screen ? screen.result : c.agents.result(workflowId);
  try {
    return await Promise.race<FollowOutcome>([
      following.then((result) => ({ kind: 'ended', result })),
      interruption.signalled.then(() => ({ kind: 'interrupted' })),
      ...(worker
        ? [
            worker.done.then(
              (): FollowOutcome => ({ kind: 'worker-stopped', error: '' }),
              (err: unknown): FollowOutcome => ({ kind: 'worker-stopped', error: readErrorText(err) }),
            ),
          ]
        : []),
    ]);
  } finally {
    // Before anything else is printed: the terminal back to its main screen, the last frame in the scrollback.
    screen?.close();
    await stopStallWatch();
  }
}

/** Says where the run stands and how to resume it, stops this process's worker, and exits. */
async function stopFollowing(
  outcome: Exclude<FollowOutcome, { kind: 'ended' }>,
  at: {
    workflowId: string;
    placement: RunPlacement;
    worker: RunningWorker | undefined;
    interruption: Interruption;
    configuredQueue: string;
  },
): Promise<never> {
  const { workflowId, placement, worker, interruption } = at;
  // The SDK stops the worker on Ctrl-C too, so which promise won the race says less than the flag.
  const what = interruption.happened
    ? `Stopped following ${workflowId}${worker ? ' and stopped its worker' : ''}.`
    : `This process's worker stopped before ${workflowId} ended${outcome.kind === 'worker-stopped' && outcome.error ? `: ${outcome.error}` : ''}.`;
  const where =
    placement.worker === 'own'
      ? `The run keeps its state in Temporal; nothing advances it until a worker polls task queue "${placement.taskQueue}".`
      : `The run keeps its state in Temporal and goes on on the workers of task queue "${placement.taskQueue}".`;
  const next =
    placement.worker === 'own'
      ? resumeAdvice(workflowId, placement.taskQueue, at.configuredQueue)
      : `Follow it again with:\n  ${cliName()} watch ${workflowId}`;
  process.stderr.write(`\n${what} ${where}\n${next}\n`);
  await Promise.race([
    worker?.shutdown().catch(() => undefined),
    new Promise((r) => setTimeout(r, WORKER_STOP_MS).unref()),
  ]);
  process.exit(interruption.happened ? INTERRUPTED_EXIT_CODE : 1);
}

/** Why the run does not go to the workers on the configured queue: several lines, each worker named. */

/** `--model` also tells this process's worker which model to set up (the local one fetches its weights). */
const runModel = (options: RunOptions): { model?: string } => (options.model ? { model: options.model } : {});

function runInput(options: RunOptions, c: Connected): AgentInputInit {
  const registry = c.config.modelRegistry;
  const name = options.model ?? c.config.model;
  const strategy = options.strategy ?? (registry ? registeredStrategy(registry, name) : undefined);
  return {
    task: options.task,
    // With a registry, models are chosen by name and come with their fallbacks.
    model: registry ? resolveModel(registry, name) : (localModelOf(name) ?? { provider: 'anthropic', model: name }),
    ...(strategy ? { strategy } : {}),
    ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    // Who started it, for the audit trail and tools' required roles: the person the CLI acts as.
    caller: actingPerson(c.config, {}),
    // The keyring's public keys when one is readable: decisions the CLI signs with it count their roles.
    ...runSignedDecisions(),
    ...options.extra,
  };
}

/** The recorder for `--record`, counting what it wrote, so the CLI never claims a file it did not write. */
function countingRecorder(file: string, workflowId: string, c: Connected) {
  const secrets = c.config.anthropicApiKey ? [c.config.anthropicApiKey] : [];
  const record = createReplyRecorder(file, { workflowId, secrets });
  let written = 0;
  let tools = 0;
  return {
    onModelReply: (id: string, reply: ModelReply, call: { side: boolean }): void => {
      record(id, reply, call);
      if (id === workflowId) written++;
    },
    // MCP tools are not wrapped: they are not ToolDefinitions of this process.
    wrapTools: (defined: readonly ToolDefinition[]) =>
      recordToolCalls(defined, file, { workflowId, secrets, onRecord: () => (tools += 1) }),
    count: () => written,
    toolCount: () => tools,
  };
}

/** Starts the run, explaining a clash with a run of the same id in the person's terms. */
async function startRun(agents: AgentClient, init: AgentInputInit, workflowId: string): Promise<AgentHandle> {
  try {
    return await agents.start(init, { workflowId });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    throw new Error(
      `a run with id ${workflowId} is already running; watch it with:\n  ${cliName()} watch ${workflowId}\nor choose another --workflow-id.`,
    );
  }
}
