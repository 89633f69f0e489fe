import type { AgentResult, ReasoningStep } from '../../domain';
import { renderChecklist, renderPlan } from './render-plan';
import { renderRemoteChain, renderSubAgentOutcome } from './render-sub-agent';
import { clip, cyan, dim, green, oneLine, red, yellow } from './terminal-style';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';
import { toolResultNote } from '../../domain/tools/tool-result-note';
import { answerLabel, claimFaultsText, confidenceText, faultsOf } from '../../domain/chain/answer-grounding';
import { cacheHitText } from '../../domain/planning/cache-hit-text';
import { runEnding } from '../../domain/run/run-ending';
import { endingLines } from './render-ending';
import { counted } from '../../domain/text/counted';
import { consensusSummary } from '../../domain/model/consensus-summary';
import type { ModelTimes } from '../../domain/chain/model-times';

/** Lines a step adds under its first sit under the text after the label (number 4 + label 13). */
const UNDER = ' '.repeat(17);
const label = (text: string, colour: (t: string) => string): string =>
  `${colour(text)}${' '.repeat(Math.max(1, 13 - text.length))}`;
const under = (lines: readonly string[]): string => lines.map((l) => `\n${UNDER}${l}`).join('');

/** "[parallel 5 · 2/3] ": one of the calls a model turn ran concurrently (group = the turn's first call). */
const parallelTag = (step: ReasoningStep): string =>
  step.parallel ? dim(`[parallel ${step.parallel.group} · ${step.parallel.index}/${step.parallel.size}] `) : '';

/** " (cached from run X, 3 min old)", dimmed, on a result or plan reused from the worker's cache. */
const cacheNote = (step: ReasoningStep): string => (step.cacheHit ? dim(` (${cacheHitText(step.cacheHit)})`) : '');

/** " (confidence 80%)", dimmed, when the model gave one. */
const confidenceNote = (confidence: number | undefined): string => {
  const text = confidenceText(confidence);
  return text ? dim(` (${text})`) : '';
};

function renderThought(step: Extract<ReasoningStep, { type: 'thinking' }>): string {
  const thought = `${clip(step.thought, 400)}${confidenceNote(step.confidence)}`;
  switch (step.purpose) {
    case 'plan':
      return `${label(step.plan ? `Plan v${step.plan.version}` : 'Plan', cyan)}${thought}${step.plan ? under(renderChecklist(step.plan.tasks)) : ''}`;
    case 'reflection':
      return `${label('Reflection', cyan)}${thought}`;
    case 'delegation_blocked':
      return `${label('Blocked', yellow)}${thought}`;
    case 'context':
      return `${label('Context', cyan)}${thought}`;
    case 'memory':
      return `${label('Memory', cyan)}${thought}`;
    case 'task_choice':
      return `${label('Next task', cyan)}${choiceBy(step.taskChoice)}${thought}`;
    case 'observation':
      return `${label('Observed', cyan)}${thought}`;
    case 'fallback':
      return `${label('Fallback', yellow)}${thought}`;
    case 'goal_check':
      return `${label('Goal check', cyan)}${thought}`;
    case 'rate_limit':
      return `${label('Rate limit', yellow)}${thought}`;
    case 'compaction':
      return `${label('Compaction', cyan)}${thought}`;
    case 'branch_choice':
      return `${label('Branches', cyan)}${thought}`;
    case undefined:
      return `${label('Thought', cyan)}${thought}`;
  }
}

/** The model's choice is named as such; plan order's reason says so itself (chains recorded before the model chose are plan order). */
function choiceBy(choice: Extract<ReasoningStep, { type: 'thinking' }>['taskChoice']): string {
  return choice?.chosenBy === 'model' ? `${choice.taskId}, the model's choice: ` : '';
}

/** Each model call's answering model (its reply's `model`), by the call's correlation id. */
export type AnsweringModels = ReadonlyMap<string, string>;

/** The model that answered each model call of `steps`, read from the replies (the call step records the model asked). */
export function answeringModels(steps: readonly ReasoningStep[]): AnsweringModels {
  const models = new Map<string, string>();
  for (const step of steps)
    if (step.type === 'tool_result' && step.model && step.toolResult.success)
      models.set(step.toolResult.correlationId, step.model);
  return models;
}

/** Steps of a chain (or a page of one), each model call titled with the model that answered it. */
export function renderSteps(steps: readonly ReasoningStep[]): string[] {
  const answered = answeringModels(steps);
  return steps.map((step) => renderStep(step, answered));
}

/** "offline-model (iteration 1, asked for claude-sonnet-4-6)": the model that answered, when known; else the one asked. */
function modelCallTitle(call: Extract<ReasoningStep, { type: 'tool_call' }>, answered?: AnsweringModels): string {
  const asked = call.toolCall.toolName;
  const by = answered?.get(call.toolCall.correlationId);
  return by && by !== asked
    ? `${by} (iteration ${call.iteration}, asked for ${asked})`
    : `${asked} (iteration ${call.iteration})`;
}

/** "Model call failed: ModelAuthentication: …" without its first words, which the label says. */
const modelFailure = (error: string | undefined): string =>
  redactSecretsInText((error ?? 'no reason recorded').replace(/^Model call failed: /, ''));

/**
 * One terminal line per step, for people watching a run live; a plan, a delegation or a
 * sub-agent's outcome adds indented lines under it. `answered` (from `answeringModels`) titles a
 * model call with the model that answered it; without it (live, before the reply), the model asked.
 */
export function renderStep(step: ReasoningStep, answered?: AnsweringModels): string {
  const n = dim(`${String(step.stepNumber).padStart(3)} `);
  if (step.visibility.level === 'hidden') return `${n}${dim(`(hidden ${step.type})`)}`;
  const tag = parallelTag(step);
  switch (step.type) {
    case 'thinking':
      return `${n}${renderThought(step)}${cacheNote(step)}`;
    case 'tool_call': {
      const c = step.toolCall;
      if (c.toolType === 'llm') {
        const note = c.arguments['note'];
        const routed = c.routed !== undefined ? ` ${dim(`routed: ${clip(c.routed, 300)}`)}` : '';
        return `${n}${dim(`Model call   ${modelCallTitle(step, answered)}`)}${typeof note === 'string' ? ` ${yellow(note)}` : ''}${routed}`;
      }
      const delegated = c.delegatedTo
        ? under([`→ delegated to ${c.delegatedTo.agentName} (run ${c.delegatedTo.workflowId})`])
        : '';
      return `${n}${label('Action', yellow)}${tag}${c.toolName} ${oneLine(c.arguments)}${delegated}`;
    }
    case 'tool_result': {
      const r = step.toolResult;
      if (step.model) {
        const u = step.usage;
        // A view without usage or cost (the end user's) shows neither.
        const parts = [
          u ? `${u.inputTokens} in / ${u.outputTokens} out` : '',
          step.costUsd !== undefined ? `$${step.costUsd.toFixed(4)}` : '',
          `${r.durationMs} ms`,
        ];
        // A failed call says why (the failure's type and message): the run's error is often this.
        if (!r.success)
          return `${n}${label('Model failed', red)}${dim(`${[step.model, `${r.durationMs} ms`].join(' · ')} `)}${red(oneLine(modelFailure(r.error), 300))}`;
        // A string result is an `llm` tool's answer (ask_model): name the model that gave it.
        if (typeof r.result === 'string')
          return `${n}${label('Observation', green)}${tag}${dim(`${step.model} · ${parts.filter(Boolean).join(' · ')} `)}${oneLine(r.result)}`;
        // The model that answered, which may not be the one asked (a fallback, the offline model).
        return `${n}${dim(`Model reply  ${[step.model, ...parts].filter(Boolean).join(' · ')}`)}${cacheNote(step)}`;
      }
      const note = toolResultNote(r);
      const notes = `${r.truncated ? dim(' (truncated)') : ''}${note ? dim(` (${note})`) : ''}${cacheNote(step)}`;
      // A consensus (ask_model asking several models) says how they split, not its JSON.
      const agreement = r.success ? consensusSummary(r.result) : undefined;
      const line = r.success
        ? `${label('Observation', green)}${tag}${agreement ?? oneLine(r.result)}${notes}`
        : `${label('Observation', red)}${tag}${oneLine(r.error ?? 'failed', 300)}${notes}`;
      return `${n}${line}${r.subAgent ? under([renderSubAgentOutcome(r.subAgent), ...renderRemoteChain(r.subAgent)]) : ''}`;
    }
    case 'synthesis':
      return `${n}${renderAnswer(step.synthesis)}`;
  }
}

/**
 * The answer step: "Final answer" only for a grounded success (or one recorded before answers
 * were judged); otherwise its label says what it is, on a line of its own, in yellow or red.
 */
function renderAnswer(synthesis: Extract<ReasoningStep, { type: 'synthesis' }>['synthesis']): string {
  const judged = answerLabel(synthesis);
  const conclusion = `${synthesis.conclusion}${confidenceNote(synthesis.confidence)}`;
  if (judged === undefined || judged.kind === 'final') return `${label('Final answer', green)}${conclusion}`;
  const colour = judged.kind === 'ungrounded' || judged.kind === 'contradicted' ? red : yellow;
  const unsupported = claimFaultsText({ grounding: synthesis.grounding, ...faultsOf(synthesis.claimCheck) });
  return `${colour(judged.title)}${under(unsupported ? [conclusion, yellow(unsupported)] : [conclusion])}`;
}

/** "Answer: grounded: tool results in steps 4, 7 (confidence 80%)", or what else stands behind it; undefined for old results. */
function answerLine(result: AgentResult): string | undefined {
  const judged = answerLabel({ grounding: result.grounding, terminationReason: result.terminationReason });
  // No answer (an error before any), nothing to judge.
  if (judged === undefined || result.finalAnswer.trim() === '') return undefined;
  const numberOf = new Map(result.chain.steps.map((s) => [s.stepId, s.stepNumber]));
  const steps = (result.answerSources ?? []).map((id) => numberOf.get(id) ?? id);
  const unsupported = claimFaultsText({
    grounding: result.grounding,
    unsupported: result.unsupportedClaims,
    contradicted: result.contradictedClaims,
    unchecked: result.uncheckedClaims,
  });
  const behind =
    result.grounding === 'grounded'
      ? `${judged.kind === 'final' ? green('grounded') : yellow(judged.title)}: tool results in steps ${steps.join(', ')}`
      : result.grounding === 'partly_grounded' ||
          result.grounding === 'contradicted' ||
          result.grounding === 'unchecked'
        ? `${yellow(judged.title)}: tool results in steps ${steps.join(', ')}${unsupported ? `; ${yellow(unsupported)}` : ''}`
        : `${judged.kind === 'ungrounded' ? red(judged.title) : yellow(judged.title)}: no tool result behind it`;
  const confidence = confidenceText(result.confidence);
  return `Answer: ${behind}${confidence ? ` (${confidence})` : ''}`;
}

/** Streaming model text, dimmed; `first` opens its line with a marker under the step column. */
export function renderLive(kind: 'text' | 'thinking', text: string, first: boolean): string {
  const marker = first ? `    ${dim(kind === 'thinking' ? '(thinking) ' : '… ')}` : '';
  return `${marker}${dim(text)}`;
}

/** A running tool's latest progress, under its call's line: `⋯ files_search 40% scanned 1,200 files` (dimmed). */
export function renderToolProgress(progress: { toolName: string; fraction?: number; message?: string }): string {
  const share = progress.fraction === undefined ? '' : ` ${Math.round(progress.fraction * 100)}%`;
  const line = progress.message === undefined ? '' : ` ${clip(oneLine(redactSecretsInText(progress.message)), 120)}`;
  return `    ${dim(`⋯ ${progress.toolName}${share}${line}`)}`;
}

/**
 * `run`'s and `watch`'s last lines: the counts, how the run ended and why (`runEnding`), what
 * stands behind the answer, the spend, and the error whole. `result` must already be the reader's
 * view (`viewResult`), as every door's ending is.
 */
export function renderSummary(result: AgentResult): string {
  const ending = runEnding({ result });
  const u = result.usage;
  const status = result.success ? green(result.terminationReason) : red(result.terminationReason);
  const answer = answerLine(result);
  const delegated = result.delegated?.runs
    ? [
        `Sub-agents: ${counted(result.delegated.runs, 'run')}, ${counted(result.delegated.iterations, 'iteration')}, ${result.delegated.usage.inputTokens} in / ${result.delegated.usage.outputTokens} out, $${result.delegated.costUsd.toFixed(6)} (included above)`,
      ]
    : [];
  const [ended, ...why] = endingLines(ending, { answer: false, width: 8 });
  return [
    `Result: ${status} after ${counted(result.iterations, 'iteration')}, ${counted(result.modelCalls, 'model call')}, ${counted(result.toolCalls, 'tool call')}`,
    ended!,
    ...(answer ? [answer] : []),
    `Tokens: ${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write`,
    `Cost:   $${result.costUsd.toFixed(6)} · ${result.executionTimeMs} ms`,
    // Results recorded before the run kept its times have none.
    ...(result.times ? [`Time:   ${timesText(result.times)}`] : []),
    ...delegated,
    ...(result.plan ? [renderPlan(result.plan)] : []),
    ...why.map(red),
  ].join('\n');
}

/** "planning 1.2 s (1 call) · reasoning 3.4 s over 4 iterations, 0.9 s each, slowest 1.5 s". */
export function timesText(time: ModelTimes): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const planning =
    time.planningCalls > 0 ? `planning ${s(time.planningMs)} (${counted(time.planningCalls, 'call')})` : 'no planning';
  const reasoning =
    time.reasoningIterations > 0
      ? `reasoning ${s(time.reasoningMs)} over ${counted(time.reasoningIterations, 'iteration')}, ${s(time.reasoningPerIterationMs)} each, slowest ${s(time.slowestIterationMs)}`
      : 'no reasoning turn';
  return `${planning} · ${reasoning}`;
}
