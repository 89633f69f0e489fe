import { randomUUID } from 'node:crypto';
import { createReplyRecorder } from '../../activities/recording';
import { resolveModel, type AgentInputInit, type AgentResult } from '../../shared';
import { renderSummary } from '../render/render-step';
import { connectOrStart, startWorker, webUiLink, type Connected } from '../runtime';
import { printFollowed } from '../watch-printer';
import { writeForStdout, writeSafe } from '../render/terminal-safe';
import { viewResult } from '../../shared/chain-view';

export interface RunOptions {
  task: string;
  json: boolean;
  /** Run a worker inside this process (default), or rely on one already polling the task queue. */
  embeddedWorker: boolean;
  maxIterations?: number;
  model?: string;
  workflowId?: string;
  /** Append this run's model replies to a JSONL file, to replay it offline in a test. */
  recordTo?: string;
  /** More input: sub-agents, planning (from `--agents`, `--plan`, `--template`, or the team demo). */
  extra?: Partial<AgentInputInit>;
}

/** Starts one agent, prints its steps as they land, and returns its result. */
export async function runTask(options: RunOptions, connected?: Connected): Promise<AgentResult> {
  const c = connected ?? (await connectOrStart());
  const workflowId = options.workflowId ?? `agent-${randomUUID()}`;
  if (options.recordTo && !options.embeddedWorker) throw new Error('--record needs the embedded worker (drop --no-worker).');
  const recorder = options.recordTo
    ? { onModelReply: createReplyRecorder(options.recordTo, { workflowId, secrets: c.config.anthropicApiKey ? [c.config.anthropicApiKey] : [] }) }
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
  const worker = options.embeddedWorker ? await startWorker(c, [], recorder) : undefined;
  try {
    const handle = await c.agents.start(init, { workflowId });
    const out = options.json ? process.stderr : process.stdout;
    out.write(`Started ${handle.workflowId}\n`);
    const link = webUiLink(c.server, handle.workflowId);
    if (link) out.write(`Web UI: ${link}\n\n`);
    const result = options.json
      ? await c.agents.result(handle.workflowId)
      : await printFollowed(c.agents.follow(handle.workflowId), out);
    // The auditor's view: every step, secrets redacted, as everywhere else a result is shown.
    if (options.json) writeForStdout(`${JSON.stringify(viewResult(result, 'auditor'), null, 2)}\n`);
    else writeSafe(out, `\n${renderSummary(result)}\n`);
    if (options.recordTo) (options.json ? process.stderr : out).write(`Recorded ${result.modelCalls} model replies to ${options.recordTo}\n`);
    return result;
  } finally {
    await worker?.shutdown();
  }
}
