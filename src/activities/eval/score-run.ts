import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentResult, ModelReply, TokenUsage } from '../../domain';
import type { Score } from '../../domain/evaluation/case-result';
import type { EvalCase } from '../../domain/evaluation/eval-case';
import type { JudgeSettings } from '../../domain/evaluation/evaluation-input';
import { factsOf, type LoopToolNames } from '../../domain/evaluation/scoring-facts';
import type { ScorerDefinition } from '../../eval/define-scorer';
import type { Redactor } from '../../tools/redact-secrets';
import { createJudgeCaller, type JudgeDeps } from './judge-call';
import { judgePrompt } from './judge-prompt';
import { readJudgeReply } from './judge-reply';
import { cutWhy, unknownScore, userScore } from './user-score';

export interface ScoreRunInput {
  /** The agent run to score; its AgentResult is read from Temporal here, never passed in. */
  runWorkflowId: string;
  case: EvalCase;
  /** Worker scorers to run, by name; `judge` runs the judge (also run whenever `judge` is set). */
  scorers: string[];
  judge?: JudgeSettings;
  loopTools: LoopToolNames;
}

/** What the judge was asked and answered, kept in the case workflow's history (the activity's result). */
export interface JudgeRecord {
  provider: string;
  model: string;
  /** The prompt, cut to MAX_RECORDED_PROMPT_CHARS. */
  prompt: string;
  reply: string;
  usage?: TokenUsage;
  costUsd: number;
}

export interface ScoreRunResult {
  scores: Score[];
  judge?: JudgeRecord;
}

/** Most characters of the judge's prompt the record keeps (the chain in it is bounded already). */
export const MAX_RECORDED_PROMPT_CHARS = 48_000;
/** The judge passes a run at this score unless the evaluation says otherwise (seed 001: coherence in 90% of steps). */
export const DEFAULT_JUDGE_PASS_AT = 0.9;

export interface EvalActivityDeps extends JudgeDeps {
  /** Scorers evaluation cases may name (`createAgentWorker({ scorers })`). */
  scorers?: readonly ScorerDefinition[];
  /** Applied to the judge's reply before it enters history. */
  redact?: Redactor;
}

/** The evaluation's activity: one `scoreRun` per scored run that names worker scorers or has a judge. */
export function createEvalActivities(deps: EvalActivityDeps) {
  const byName = new Map((deps.scorers ?? []).map((s) => [s.name, s]));
  const callJudge = createJudgeCaller(deps);
  const redact = deps.redact ?? ((v: unknown) => v);

  /** The judge's score and record; a failure it cannot retry (or on the last attempt) is a failed score. */
  async function judged(judge: JudgeSettings, result: AgentResult): Promise<{ score: Score; record: JudgeRecord }> {
    const ctx = Context.current();
    const prompt = judgePrompt(result.chain.task, result, judge.rubric);
    const record = (reply: ModelReply | undefined): JudgeRecord => ({
      provider: judge.model.provider,
      model: reply?.model ?? judge.model.model,
      prompt: prompt.length > MAX_RECORDED_PROMPT_CHARS ? `${prompt.slice(0, MAX_RECORDED_PROMPT_CHARS)}…` : prompt,
      reply: reply ? String(redact(replyText(reply))) : '',
      ...(reply ? { usage: reply.usage } : {}),
      costUsd: reply?.costUsd ?? 0,
    });
    const failed = (why: string, reply?: ModelReply) => ({
      score: { scorer: 'judge', value: 0, passed: false, why: cutWhy(why) },
      record: record(reply),
    });
    let reply: ModelReply;
    try {
      reply = await callJudge(judge, prompt, ctx.cancellationSignal, () => ctx.heartbeat());
    } catch (err) {
      if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      const final = err instanceof ApplicationFailure && err.nonRetryable;
      // Temporal retries the activity (the case workflow sets the judge model's attempts); the last attempt scores instead.
      if (!final && ctx.info.attempt < judge.model.maximumAttempts) throw err;
      return failed(`the judge's call failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    const verdict = readJudgeReply(String(redact(replyText(reply))));
    if ('unreadable' in verdict) return failed(verdict.unreadable, reply);
    const passAt = judge.passAt ?? DEFAULT_JUDGE_PASS_AT;
    return {
      score: { scorer: 'judge', value: verdict.score, passed: verdict.score >= passAt, why: cutWhy(verdict.why) },
      record: record(reply),
    };
  }

  return {
    /**
     * Scores one ended agent run with the worker's scorers and the judge. Reads the run's
     * AgentResult from Temporal (the activity's client), so the big result is not sent again as
     * input. A scorer that throws or is unknown, and a judge that fails for good or replies
     * unreadably, each give a failed score, never a failed activity. Heartbeats throughout.
     */
    async scoreRun(input: ScoreRunInput): Promise<ScoreRunResult> {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), 1_000);
      try {
        const result = (await ctx.client.workflow.getHandle(input.runWorkflowId).result()) as AgentResult;
        const facts = factsOf(result, input.loopTools);
        const names = [...new Set([...input.scorers, ...(input.judge ? ['judge'] : [])])];
        const scores: Score[] = [];
        let judge: JudgeRecord | undefined;
        for (const name of names) {
          if (name === 'judge') {
            if (!input.judge) {
              scores.push({
                scorer: name,
                value: 0,
                passed: false,
                why: 'the case names "judge" but the evaluation sets no judge model',
              });
              continue;
            }
            const verdict = await judged(input.judge, result);
            scores.push(verdict.score);
            judge = verdict.record;
            continue;
          }
          const scorer = byName.get(name);
          scores.push(
            scorer
              ? await userScore(scorer, { case: input.case, facts, result })
              : unknownScore(name, [...byName.keys()]),
          );
        }
        return { scores, ...(judge ? { judge } : {}) };
      } finally {
        clearInterval(beat);
      }
    },
  };
}

function replyText(reply: ModelReply): string {
  return reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}
