import type { WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { INTERRUPTED_EXIT_CODE, watchInterruption, type Interruption } from '../../../client/follow/interruption';
import { placeRun, type RunPlacement } from '../../../client/follow/run-placement';
import { startWorkerCommand } from '../../../client/follow/worker-advice';
import { workerPolls } from '../../../client/follow/worker-presence';
import { readErrorText } from '../../../client/errors/read-error-text';
import { loadConfig, type Config } from '../../../config';
import { type LoadedDataset } from '../../../eval/dataset';
import { createEvalReplay, type EvalReplay } from '../../../eval/replay';
import { criteriaText, writeReports } from '../../../eval/report';
import { counted } from '../../../domain/text/counted';
import { EvaluationInput, EvaluationProgress, EvaluationResult } from '../../../domain/evaluation';
import { compareWithBaseline, DatasetMismatchError, type GateResult } from '../../../domain/evaluation/gate';
import { summariseEvaluation } from '../../../domain/evaluation/stats';
import { EVALUATION_WORKFLOW, evaluationProgressQuery } from '../../../workflows/eval/eval-messages';
import { terseLogEntry } from '../../reading/terse-log-entry';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { loadAgentsModule, loadGuardrailsModule, loadToolsModule } from '../../setup/load-tools-module';
import { LOCAL_MODEL_CHOICE } from '../../setup/local-model-setup';
import {
  connectOrStart,
  log,
  routeWorkerLog,
  startWorker,
  webUiLink,
  type Connected,
  type RunningWorker,
} from '../../setup/runtime';
import { UsageError } from '../../spec/usage-error';
import { workflowBuildId } from '../../setup/cached-workflow-bundle';
import { passedOverText } from '../../setup/passed-over-text';
import { cliName } from '../../../client/follow/cli-name';
import { isOtherBuild } from '../../setup/worker-identity';
import { FAILURE_CONVERTER_PATH } from '../../../codec/data-converter';
import { readBaseline, readDataset } from './eval-files';
import { evaluationInput, variantId } from './eval-input';
import { offlineJudge, offlineVariants } from './offline-variants';
import { OFFLINE_MODEL_NAME } from '../../../offline/offline-model';
import type { EvalOptions } from './eval-options';

/** How often the progress query is asked while the evaluation runs. */
const PROGRESS_EVERY_MS = 1_500;
/** How long Ctrl-C waits for this process's worker to stop before the process exits anyway. */
const WORKER_STOP_MS = 5_000;

/**
 * `thoughtline eval DATASET`: loads and checks the dataset, starts `evaluationWorkflow` (or follows
 * the one `--resume` names) on a standing worker or this process's own, prints progress on stderr,
 * then writes result.json, report.md and report.html and prints the criteria. Exit code 1 when
 * the baseline gate finds a regression or the evaluation was cancelled.
 */
export async function evaluate(options: EvalOptions): Promise<number> {
  const dataset = readDataset(options.dataset);
  // Read before anything starts: a bad baseline must not cost an evaluation.
  const baseline = options.baseline ? readBaseline(options.baseline) : undefined;
  if (baseline && baseline.dataset.sha256 !== dataset.sha256 && !options.baselineAnyDataset)
    throw new UsageError(
      new DatasetMismatchError(baseline.dataset, { name: dataset.name, sha256: dataset.sha256 }).message,
    );
  if (dataset.replays.length > 0 && options.noWorker)
    throw new UsageError(
      `${counted(dataset.replays.length, 'case')} ${dataset.replays.length === 1 ? 'replays' : 'replay'} recordings, which only this process's own worker can serve; drop --no-worker.`,
    );
  // Checked before any server is found or started: the input's mistakes are the command line's.
  const asked = options.resume ? undefined : evaluationInput(dataset, options, loadConfig());
  const interruption = watchInterruption();
  try {
    const c = await connectOrStart();
    const evaluationId = options.resume ?? `eval-${variantId(dataset.name).slice(0, 40)}-${randomUUID().slice(0, 8)}`;
    const placement = await place(c, options, dataset, asked, evaluationId);
    const input = asked && placement.worker === 'own' ? answeredHere(asked, c.config) : asked;
    // This process's worker registers only the agents of --tools: a variant naming another needs a standing worker.
    const ownAgents = options.tools ? loadAgentsModule(options.tools).map((a) => a.id) : [];
    const missing = options.agents.filter((a) => !ownAgents.includes(a));
    if (placement.worker === 'own' && missing.length > 0)
      throw new Error(
        `--agent ${missing.join(', ')}: this process's worker registers ${ownAgents.length ? `only ${ownAgents.join(', ')}` : 'no agents'}, and no other worker takes the evaluation. ` +
          `Start one that registers them (thoughtline worker --tools FILE, FILE exporting "agents"), or pass that FILE as --tools.`,
      );
    const dir = options.out ?? path.join('eval-results', evaluationId);
    const workerLog = placement.worker === 'own' ? workerLogFile(dir) : undefined;
    const worker =
      placement.worker === 'own' ? await ownWorker(c, options, dataset, placement.taskQueue, evaluationId) : undefined;
    try {
      const handle = input
        ? await c.agents.client.workflow.start(EVALUATION_WORKFLOW, {
            taskQueue: placement.taskQueue,
            workflowId: evaluationId,
            args: [input],
            staticSummary: `Evaluation ${input.name}: ${counted(input.cases.length, 'case')} × ${counted(input.variants.length, 'variant')} × ${counted(input.repeat, 'repeat')}`,
          })
        : c.agents.client.workflow.getHandle(evaluationId);
      log(`${input ? 'started' : 'following'} evaluation ${evaluationId} on task queue "${placement.taskQueue}"`);
      const link = webUiLink(c.server, evaluationId);
      if (link) log(`Web UI: ${link}`);
      interruption.arm();
      const ended = await follow(handle, worker, interruption);
      if (ended.kind !== 'ended')
        return await stopFollowing(ended, { evaluationId, options, placement, worker, interruption, c });
      const code = report(ended.result, { options, baseline, dir, evaluationId, viewerBase: c.config.server?.url });
      workerLog?.summarise();
      return code;
    } finally {
      await worker?.shutdown();
    }
  } finally {
    interruption.dispose();
  }
}

/**
 * The input as this process's own worker answers it: with no ANTHROPIC_API_KEY (and no model
 * registry, whose entries the worker allows by name) the offline model answers Claude's calls, so
 * those variants and the judge ask for it by name, and every result stands under the model that
 * produced it. A standing worker may hold a key: its variants keep the names asked for.
 */
function answeredHere(input: EvaluationInput, config: Readonly<Config>): EvaluationInput {
  if (config.anthropicApiKey || config.modelRegistry) return input;
  const { variants, merged } = offlineVariants(input.variants);
  const judge = input.judge ? offlineJudge(input.judge) : undefined;
  if (variants.some((v, i) => v !== input.variants[i]) || judge !== input.judge)
    log(
      `no ANTHROPIC_API_KEY: the offline model answers the Claude variants, named ${OFFLINE_MODEL_NAME} in the results` +
        (merged.length > 0
          ? ` (${merged.join(', ')} ${merged.length === 1 ? 'is' : 'are'} the same runs: kept once)`
          : '') +
        '.',
    );
  return { ...input, variants, ...(judge ? { judge } : {}) };
}

/** Which variants need this process's worker: the local model runs in it. */
const usesLocalModel = (options: EvalOptions, config: Readonly<Config>): boolean =>
  (options.models.length > 0 ? options.models : [config.model]).includes(LOCAL_MODEL_CHOICE) ||
  options.judge === LOCAL_MODEL_CHOICE;

async function place(
  c: Connected,
  options: EvalOptions,
  dataset: LoadedDataset,
  input: EvaluationInput | undefined,
  evaluationId: string,
): Promise<RunPlacement> {
  if (!input) {
    // Resuming: the evaluation stays on the queue it started on; a private one needs this process's worker again.
    const { taskQueue } = await c.agents.client.workflow.getHandle(evaluationId).describe();
    const standing = taskQueue === c.config.taskQueue || (await workerPolls(c.agents.client, taskQueue));
    return standing && !options.tools && dataset.replays.length === 0
      ? { worker: 'standing', taskQueue }
      : { worker: 'own', taskQueue };
  }
  const placement = await placeRun(c.agents.client, c.config.taskQueue, {
    standingOnly: options.noWorker,
    ownOnly: Boolean(options.tools) || dataset.replays.length > 0 || usesLocalModel(options, c.config),
    // As for `run`: another checkout's (or version's) CLI worker would run the cases with its own code.
    isForeign: isOtherBuild(workflowBuildId(c.config.encryptionKeys ? FAILURE_CONVERTER_PATH : undefined)),
  });
  if (placement.worker === 'own' && placement.passedOver)
    log(passedOverText('the evaluation', placement.passedOver, c.config.taskQueue, placement.taskQueue));
  if (placement.worker === 'standing' && !options.noWorker)
    log(
      `a worker already polls task queue "${placement.taskQueue}": the evaluation goes to it, with its tools and models (--tools runs this process's own).`,
    );
  return placement;
}

async function ownWorker(
  c: Connected,
  options: EvalOptions,
  dataset: LoadedDataset,
  taskQueue: string,
  evaluationId: string,
): Promise<RunningWorker> {
  const replay = dataset.replays.length > 0 ? replayFor(evaluationId, dataset) : undefined;
  const local = usesLocalModel(options, c.config) ? { model: LOCAL_MODEL_CHOICE } : {};
  return startWorker(
    { ...c, config: { ...c.config, taskQueue, ...local } },
    options.tools ? loadToolsModule(options.tools) : [],
    {
      agents: options.tools ? loadAgentsModule(options.tools) : [],
      guardrails: options.tools ? loadGuardrailsModule(options.tools) : [],
      ...(replay ? { extraModels: { replay: replay.provider }, wrapTools: (tools) => replay.wrapTools(tools) } : {}),
    },
  );
}

/**
 * This process's worker's warnings go to <dir>/worker.log, not between the progress lines: a case
 * that tests a failing tool makes the SDK warn "Activity failed" on purpose. Errors (a worker that
 * cannot go on) still show on stderr too. `summarise` says where the warnings went, if any.
 */
function workerLogFile(dir: string): { summarise(): void } {
  const file = path.join(dir, 'worker.log');
  let warnings = 0;
  routeWorkerLog((entry) => {
    const line = `${terseLogEntry(entry)}\n`;
    if (entry.level === 'ERROR') process.stderr.write(line);
    else warnings += 1;
    fs.mkdirSync(dir, { recursive: true });
    fs.appendFileSync(file, line);
  });
  return {
    summarise: () => {
      if (warnings > 0)
        log(
          `this process's worker logged ${counted(warnings, 'warning')} (failed tool calls are expected in cases that test them): ${file}`,
        );
    },
  };
}

/** Cases with `replay` are answered from their recordings by this process's worker: no real model or tool runs for them. */
function replayFor(evaluationId: string, dataset: LoadedDataset): EvalReplay {
  return createEvalReplay({ evaluationId, cases: dataset.replays, folder: path.dirname(dataset.file) });
}

type Followed =
  { kind: 'ended'; result: EvaluationResult } | { kind: 'interrupted' } | { kind: 'worker-stopped'; error: string };

/** Prints progress on stderr, a line per change, until the evaluation ends, Ctrl-C, or this process's worker stops. */
async function follow(
  handle: WorkflowHandle,
  worker: RunningWorker | undefined,
  interruption: Interruption,
): Promise<Followed> {
  let last = '';
  const ticker = setInterval(() => {
    handle.query(evaluationProgressQuery).then(
      (raw) => {
        const parsed = EvaluationProgress.safeParse(raw);
        if (!parsed.success) return;
        const line = progressLine(parsed.data);
        if (line !== last) log((last = line));
      },
      // Not answered yet (no workflow task done, a worker restarting): the next tick asks again.
      () => undefined,
    );
  }, PROGRESS_EVERY_MS);
  try {
    return await Promise.race<Followed>([
      handle.result().then((raw: unknown): Followed => {
        const parsed = EvaluationResult.safeParse(raw);
        if (!parsed.success)
          throw new Error(
            `evaluation ${handle.workflowId} returned something that is not an EvaluationResult: ${parsed.error.issues[0]?.message}`,
          );
        return { kind: 'ended', result: parsed.data };
      }),
      interruption.signalled.then((): Followed => ({ kind: 'interrupted' })),
      ...(worker
        ? [
            worker.done.then(
              (): Followed => ({ kind: 'worker-stopped', error: '' }),
              (err: unknown): Followed => ({ kind: 'worker-stopped', error: readErrorText(err) }),
            ),
          ]
        : []),
    ]);
  } finally {
    clearInterval(ticker);
  }
}

/** `12/48 done, 2 running, 1 skipped, 10 passed; $0.0123, 4,512 tokens`. */
export function progressLine(p: EvaluationProgress): string {
  return (
    `${p.done}/${p.total} done, ${p.running} running, ${p.skipped} skipped, ${p.passed} passed; ` +
    `$${p.spent.costUsd.toFixed(4)}, ${p.spent.tokens.toLocaleString('en-US')} tokens`
  );
}

/** Says where the evaluation stands and how to resume or cancel it, stops this process's worker, and exits. */
async function stopFollowing(
  outcome: Exclude<Followed, { kind: 'ended' }>,
  at: {
    evaluationId: string;
    options: EvalOptions;
    placement: RunPlacement;
    worker: RunningWorker | undefined;
    interruption: Interruption;
    c: Connected;
  },
): Promise<never> {
  const { evaluationId, placement, worker, options } = at;
  const what = at.interruption.happened
    ? `Stopped following ${evaluationId}${worker ? ' and stopped its worker' : ''}.`
    : `This process's worker stopped before ${evaluationId} ended${outcome.kind === 'worker-stopped' && outcome.error ? `: ${outcome.error}` : ''}.`;
  const where =
    placement.worker === 'own'
      ? `The evaluation keeps its state in Temporal (no case runs twice); nothing advances it until a worker polls task queue "${placement.taskQueue}".`
      : `The evaluation keeps its state in Temporal and goes on on the workers of task queue "${placement.taskQueue}".`;
  const resume = [
    `${cliName()} eval`,
    JSON.stringify(options.dataset),
    `--resume ${evaluationId}`,
    ...(options.tools ? [`--tools ${JSON.stringify(options.tools)}`] : []),
    ...(options.baseline ? [`--baseline ${JSON.stringify(options.baseline)}`] : []),
    ...(options.out ? [`--out ${JSON.stringify(options.out)}`] : []),
  ].join(' ');
  const standing =
    placement.worker === 'own'
      ? `\nor start a worker on its queue:\n  ${startWorkerCommand(placement.taskQueue, at.c.config.taskQueue)}`
      : '';
  writeSafe(
    process.stderr,
    `\n${what} ${where}\nResume following it, and write its reports when it ends, with:\n  ${resume}${standing}\nCancel it with:\n  ${cliName()} cancel ${evaluationId} --hard\n`,
  );
  await Promise.race([
    worker?.shutdown().catch(() => undefined),
    new Promise((r) => setTimeout(r, WORKER_STOP_MS).unref()),
  ]);
  process.exit(at.interruption.happened ? INTERRUPTED_EXIT_CODE : 1);
}

/** Writes the reports, prints the criteria, the gate and the paths; returns the exit code. */
function report(
  result: EvaluationResult,
  at: {
    options: EvalOptions;
    baseline: EvaluationResult | undefined;
    dir: string;
    evaluationId: string;
    viewerBase: string | undefined;
  },
): number {
  const { options, baseline, dir } = at;
  const summary = summariseEvaluation(result);
  const gate: GateResult | undefined = baseline
    ? compareWithBaseline(baseline, result, { anyDataset: options.baselineAnyDataset })
    : undefined;
  const files = writeReports(dir, {
    result,
    summary,
    ...(gate ? { gate } : {}),
    ...(at.viewerBase ? { viewerBase: at.viewerBase } : {}),
  });
  const out = options.json ? process.stderr : process.stdout;
  writeSafe(out, `\nEvaluation ${at.evaluationId}: ${result.status}\n\n${criteriaText(summary)}\n`);
  if (gate) {
    writeSafe(out, `Regression gate against ${options.baseline}: ${gate.passed ? 'passed' : 'FAILED'}\n`);
    for (const r of gate.regressions) writeSafe(out, `  - ${r.why}\n`);
    for (const n of gate.notes) writeSafe(out, `  note: ${n}\n`);
    out.write('\n');
  }
  writeSafe(out, `Result: ${files.result}\nReport: ${files.markdown}\n        ${files.html}\n`);
  if (options.json)
    writeForStdout(
      `${JSON.stringify({ evaluationId: at.evaluationId, status: result.status, files, summary, ...(gate ? { gate } : {}) }, null, 2)}\n`,
    );
  return (gate && !gate.passed) || result.status === 'cancelled' ? 1 : 0;
}
