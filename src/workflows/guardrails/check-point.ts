/**
 * One guardrail check point (docs/guardrails.md): every guardrail of one stage over the point's
 * texts as ONE activity, recorded as a visible pair of `guardrail` tool steps whose result holds
 * each verdict and reason, never the text checked. Runs without guardrails at the stage record
 * nothing and call nothing. Deterministic, sandbox side.
 */
import { isCancellation } from '@temporalio/workflow';
import {
  sumSpends,
  type AgentInput,
  type GuardrailOutcome,
  type GuardrailStage,
  type GuardrailSubject,
} from '../../domain';
import { activities } from '../activity-proxies';
import { failureMessage } from '../core/failure-message';
import type { RunContext } from '../core/state/run-context';
import { waitForAnswer } from '../people/ask-person';
import type { QuestionDesk } from '../people/question-desk';
import { inWords } from '../people/wait-in-words';

/** The names of the run's guardrails at `stage`, in the order the run named them. */
export const guardrailsAt = (input: AgentInput, stage: GuardrailStage): string[] =>
  (input.guardrailSpecs ?? []).filter((g) => g.stage === stage).map((g) => g.name);

/** True when the run's answer is checked before it is the run's: its live text is then held back, and its final replies' text kept out of the chain until checked. */
export const checksOutput = (input: AgentInput): boolean => guardrailsAt(input, 'output').length > 0;

/** The word a person answers to let a text a guardrail asked about through. */
export const ALLOW_WORD = 'allow';

const RANK: Readonly<Record<GuardrailOutcome['verdict'], number>> = { pass: 0, redact: 1, ask: 2, block: 3 };

/**
 * Checks `subjects` with the run's guardrails at `stage`; undefined when the run has none there.
 * An `ask` goes to a person through the question desk (`allow` passes, anything else or no answer
 * blocks). A check point whose activity fails (after its retries) blocks every text: fails closed.
 */
export async function checkPoint(
  ctx: RunContext,
  desk: QuestionDesk,
  stage: GuardrailStage,
  subjects: GuardrailSubject[],
  what: string,
): Promise<GuardrailOutcome[] | undefined> {
  const { input, chain, workflowId } = ctx;
  const names = guardrailsAt(input, stage);
  if (!names.length || !subjects.length) return undefined;
  const correlationId = chain.newId();
  const visibility = { level: input.visibility };
  const checks = subjects.map((s) => (s.toolName ? { id: s.id, tool: s.toolName } : { id: s.id }));
  chain.toolCall(
    {
      toolType: 'guardrail',
      toolName: `guardrails:${stage}`,
      arguments: { stage, guardrails: names, checks },
      correlationId,
    },
    visibility,
  );
  const started = Date.now();
  let outcomes: GuardrailOutcome[];
  try {
    outcomes = await activities.checkGuardrails.executeWithOptions(
      {
        summary: `guardrails · ${stage} · ${what}`.slice(0, 200),
        startToCloseTimeout: '1 minute',
        retry: { maximumAttempts: 3 },
      },
      [
        {
          stage,
          names,
          subjects,
          run: {
            workflowId,
            agentName: input.agentName,
            ...(input.caller?.tenant ? { tenant: input.caller.tenant } : {}),
          },
        },
      ],
    );
  } catch (err) {
    if (isCancellation(err)) throw err;
    const reason = `the check failed: ${failureMessage(err)}`.slice(0, 500);
    outcomes = subjects.map((s) => ({ id: s.id, verdict: 'block', decidedBy: 'guardrails', reason, votes: [] }));
  }
  // A check that called a model spent from the run like an llm tool: its budgets and tenant quota count it.
  const spend = sumSpends(outcomes.map((o) => o.spend));
  if (spend) ctx.state.countToolSpend(spend);
  outcomes = await askPeople(ctx, desk, correlationId, outcomes, what);
  const worst = outcomes.reduce<GuardrailOutcome['verdict']>(
    (w, o) => (RANK[o.verdict] > RANK[w] ? o.verdict : w),
    'pass',
  );
  const blocked = outcomes.find((o) => o.verdict === 'block');
  chain.toolResult(
    {
      correlationId,
      success: !blocked,
      result: {
        verdict: worst,
        checks: outcomes.map(({ text: _text, spend: _spend, ...recorded }) => recorded),
      },
      ...(blocked ? { error: blockedWhy(blocked) } : {}),
      durationMs: Date.now() - started,
    },
    visibility,
    spend,
  );
  ctx.progress.publish();
  return outcomes;
}

/** "guardrail "pii" blocked it: holds personal data (1 EMAIL)". */
export const blockedWhy = (o: GuardrailOutcome): string =>
  `guardrail "${o.decidedBy ?? 'guardrails'}" blocked it: ${o.reason ?? ''}`;

/** Each `ask` becomes a pass or a block, by a person's answer; the others stand. */
async function askPeople(
  ctx: RunContext,
  desk: QuestionDesk,
  correlationId: string,
  outcomes: GuardrailOutcome[],
  what: string,
): Promise<GuardrailOutcome[]> {
  const decided: GuardrailOutcome[] = [];
  for (const o of outcomes) {
    if (o.verdict !== 'ask') {
      decided.push(o);
      continue;
    }
    const question =
      `Guardrail "${o.decidedBy}" asks about ${what}${o.id !== what ? ` (${o.id})` : ''}: ${o.reason}. ` +
      `Answer "${ALLOW_WORD}" to let it through; any other answer, or none within ${inWords(ctx.input.questionTimeoutMs)}, blocks it.`;
    const { answer } = await waitForAnswer(ctx, desk, `${correlationId}-${o.id}`.slice(0, 128), question);
    const allowed = answer?.text.trim().toLowerCase() === ALLOW_WORD;
    const vote = {
      guardrail: `person:${answer?.by ?? 'nobody'}`,
      verdict: allowed ? ('pass' as const) : ('block' as const),
    };
    decided.push(
      allowed
        ? { ...o, verdict: o.text !== undefined ? 'redact' : 'pass', votes: [...o.votes, vote] }
        : {
            ...o,
            verdict: 'block',
            reason: `${o.reason}; ${answer ? `${answer.by} did not allow it` : 'nobody answered'}`,
            votes: [...o.votes, vote],
          },
    );
  }
  return decided;
}
