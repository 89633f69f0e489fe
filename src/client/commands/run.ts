import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { createReplyRecorder } from '../../activities/recording';
import { resolveModel, type AgentInputInit, type AgentResult } from '../../shared';
import { AgentClient, type AgentHandle } from '../agent-client';
import { NoWorkerError } from '../follow/no-worker-error';
import { resumeAdvice, startWorkerCommand } from '../follow/worker-advice';
import { workerPolls } from '../follow/worker-presence';
import { INTERRUPTED_EXIT_CODE, watchInterruption } from '../follow/interruption';
import { readErrorText } from '../read-error-text';
import { renderSummary } from '../render/render-step';
import { connect, startWorker, webUiLink, type Connected } from '../runtime';
import { printFollowed } from '../watch-printer';
import { writeForStdout, writeSafe } from '../render/terminal-safe';
import { viewResult } from '../../shared/chain-view';

export interface RunOptions {
  task: string;
  json: boolean;
  /**
   * Run a worker inside this process (default), on a task queue of its own, or rely on one
   * already polling the configured task queue.
   */
  embeddedWorker: boolean;
  maxIterations?: number;
  model?: string;
  workflowId?: string;
  /** Append this run's model replies to a JSONL file, to replay it offline in a test. */
  recordTo?: string;
  /** More input: sub-agents, planning (from `--agents`, `--plan`, `--template`, or the team demo). */
  extra?: Partial<AgentInputInit>;
}

/** How long Ctrl-C waits for the embedded worker to stop before the process exits anyway. */
const WORKER_STOP_MS = 5_000;

/**
 * The embedded worker's own queue: the run (and its sub-agents, which inherit it) is served by
 * this process alone, with its tools, model and recorder, never by a standing worker.
 */
const privateTaskQueue = (base: string): string => `${base}-run-${randomUUID().slice(0, 8)}`;

/**
 * Starts one agent, prints its steps as they land, and returns its result. Ctrl-C stops
 * following (and the embedded worker), says how to resume, and exits the process with 130.
 */
export async function runTask(options: RunOptions, connected?: Connected): Promise<AgentResult> {
  const interruption = watchInterruption();
  try {
    return await runFollowed(options, connected ?? (await connect()), interruption);
  } finally {
    interruption.dispose();
  }
}

async function runFollowed(options: RunOptions, c: Connected, interruption: ReturnType<typeof watchInterruption>): Promise<AgentResult> {
  const workflowId = options.workflowId ?? `agent-${randomUUID()}`;
  if (options.recordTo && !options.embeddedWorker) throw new Error('--record needs the embedded worker (drop --no-worker).');
  const taskQueue = options.embeddedWorker ? privateTaskQueue(c.config.taskQueue) : c.config.taskQueue;
  if (!options.embeddedWorker && !(await workerPolls(c.agents.client, taskQueue))) {
    throw new NoWorkerError(
      `no worker polls task queue "${taskQueue}", so a run started there would wait with nothing to advance it; nothing was started.\nStart one in another terminal:\n  ${startWorkerCommand(taskQueue, c.config.taskQueue)}\nor drop --no-worker to run one in this process.`,
      taskQueue,
    );
  }
  let recorded = 0;
  const record = options.recordTo
    ? createReplyRecorder(options.recordTo, { workflowId, secrets: c.config.anthropicApiKey ? [c.config.anthropicApiKey] : [] })
    : undefined;
  const recorder = record
    ? {
        onModelReply: (id: string, reply: Parameters<typeof record>[1]) => {
          record(id, reply);
          if (id === workflowId) recorded++;
        },
      }
    : {};
  const init: AgentInputInit = {
    task: options.task,
    // With a registry, models are chosen by name and come with their fallbacks.
    model: c.config.modelRegistry
      ? resolveModel(c.config.modelRegistry, options.model ?? c.config.model)
      : { provider: 'anthropic', model: options.model ?? c.config.model },
    ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
    ...options.extra,
  };
  const worker = options.embeddedWorker ? await startWorker({ ...c, config: { ...c.config, taskQueue } }, [], recorder) : undefined;
  const out = options.json ? process.stderr : process.stdout;
  try {
    const handle = await startRun(new AgentClient({ client: c.agents.client, taskQueue }), init, workflowId);
    out.write(`Started ${handle.workflowId}\n`);
    const link = webUiLink(c.server, handle.workflowId);
    if (link) out.write(`Web UI: ${link}\n\n`);
    const following = options.json ? c.agents.result(handle.workflowId) : printFollowed(c.agents.follow(handle.workflowId), out);
    const outcome = await Promise.race([
      following.then((result) => ({ kind: 'ended' as const, result })),
      interruption.signalled.then(() => ({ kind: 'interrupted' as const })),
      ...(worker
        ? [
            worker.done.then(
              () => ({ kind: 'worker-stopped' as const, error: '' }),
              (err: unknown) => ({ kind: 'worker-stopped' as const, error: readErrorText(err) }),
            ),
          ]
        : []),
    ]);
    if (outcome.kind !== 'ended') {
      // The SDK stops the worker on Ctrl-C too, so which promise won the race says less than the flag.
      const what = interruption.happened ? `Stopped following ${workflowId}${worker ? ' and stopped its worker' : ''}.` : `This process's worker stopped before ${workflowId} ended${outcome.kind === 'worker-stopped' && outcome.error ? `: ${outcome.error}` : ''}.`;
      process.stderr.write(
        `\n${what} The run keeps its state in Temporal; nothing advances it until a worker polls task queue "${taskQueue}".\n${resumeAdvice(workflowId, taskQueue, c.config.taskQueue)}\n`,
      );
      await Promise.race([worker?.shutdown().catch(() => {}), new Promise((r) => setTimeout(r, WORKER_STOP_MS).unref())]);
      process.exit(interruption.happened ? INTERRUPTED_EXIT_CODE : 1);
    }
    const { result } = outcome;
    // The auditor's view: every step, secrets redacted, as everywhere else a result is shown.
    if (options.json) writeForStdout(`${JSON.stringify(viewResult(result, 'auditor'), null, 2)}\n`);
    else writeSafe(out, `\n${renderSummary(result)}\n`);
    if (options.recordTo) {
      (options.json ? process.stderr : out).write(
        recorded > 0
          ? `Recorded ${recorded} model replies of ${workflowId} to ${options.recordTo}\n`
          : `No model reply of ${workflowId} was recorded, so ${options.recordTo} was not written.\n`,
      );
    }
    return result;
  } finally {
    await worker?.shutdown();
  }
}

/** Starts the run, explaining a clash with a run of the same id in the person's terms. */
async function startRun(agents: AgentClient, init: AgentInputInit, workflowId: string): Promise<AgentHandle> {
  try {
    return await agents.start(init, { workflowId });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    throw new Error(`a run with id ${workflowId} is already running; watch it with:\n  thoughtline watch ${workflowId}\nor choose another --workflow-id.`);
  }
}
