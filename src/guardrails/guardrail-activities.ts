import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  boundedReason,
  GuardrailVerdict,
  MAX_GUARDRAIL_TEXT_CHARS,
  MAX_GUARDRAIL_TEXTS,
  type DescribedGuardrails,
  type GuardrailCheckRequest,
  type GuardrailOutcome,
  type GuardrailSubject,
  type GuardrailSpend,
  type GuardrailVote,
  sumSpends,
} from '../domain/guardrails/guardrail';
import { FailureType } from '../domain/run/failure-types';
import type { GuardrailDefinition } from './define-guardrail';

/** Names listed when a run names guardrails this worker lacks. */
const LISTED_NAMES = 50;

/** The guardrail activities: the stages of the guardrails a run names, and one check point's checks. */
export function createGuardrailActivities(guardrails: ReadonlyMap<string, GuardrailDefinition>) {
  return {
    /** A new run's guardrails, by name: their stages (recorded once, so replays and handovers keep them), or the names not registered here. */
    async describeGuardrails(names: string[]): Promise<DescribedGuardrails> {
      const unknown = names.filter((n) => !guardrails.has(n));
      if (unknown.length) return { found: false, unknown, known: [...guardrails.keys()].slice(0, LISTED_NAMES) };
      return {
        found: true,
        specs: names.map((n) => {
          const { name, stage, description } = guardrails.get(n)!;
          return { name, stage, ...(description ? { description: description.slice(0, 1_000) } : {}) };
        }),
      };
    },

    /**
     * Every guardrail of one stage over one check point's texts, in the order the run names them:
     * one activity per check point, whatever the number of guardrails or texts.
     */
    async checkGuardrails(request: GuardrailCheckRequest): Promise<GuardrailOutcome[]> {
      if (request.subjects.length > MAX_GUARDRAIL_TEXTS)
        throw ApplicationFailure.create({
          type: FailureType.InvalidAgentInput,
          message: `A check point sends at most ${MAX_GUARDRAIL_TEXTS} texts, not ${request.subjects.length}.`,
          nonRetryable: true,
        });
      const checks = request.names.map((name) => {
        const g = guardrails.get(name);
        // The run described them when it started: a worker without one is not this run's worker.
        if (!g || g.stage !== request.stage)
          throw ApplicationFailure.create({
            type: FailureType.InvalidAgentInput,
            message: `This worker has no ${request.stage} guardrail "${name}".`,
            nonRetryable: true,
          });
        return g;
      });
      const outcomes: GuardrailOutcome[] = [];
      for (const subject of request.subjects) outcomes.push(await checkOne(checks, subject, request));
      return outcomes;
    },
  };
}

/** One text through the stage's guardrails: redactions carry on, the first block or ask decides. */
async function checkOne(
  checks: readonly GuardrailDefinition[],
  subject: GuardrailSubject,
  request: GuardrailCheckRequest,
): Promise<GuardrailOutcome> {
  if (subject.text.length > MAX_GUARDRAIL_TEXT_CHARS) {
    // Fails closed: a text no guardrail read goes no further.
    const reason = `the text is ${subject.text.length} characters, more than the ${MAX_GUARDRAIL_TEXT_CHARS} a guardrail reads`;
    return { id: subject.id, verdict: 'block', decidedBy: 'guardrail-limit', reason, votes: [] };
  }
  const votes: GuardrailVote[] = [];
  const spends: GuardrailSpend[] = [];
  let text = subject.text;
  let redacted = false;
  for (const g of checks) {
    const verdict = await runCheck(g, text, subject, request);
    const reason = 'reason' in verdict && verdict.reason ? boundedReason(verdict.reason) : undefined;
    votes.push({ guardrail: g.name, verdict: verdict.verdict, ...(reason ? { reason } : {}) });
    if (verdict.spend) spends.push(verdict.spend);
    if (verdict.verdict === 'redact') {
      text = verdict.text;
      redacted = true;
    }
    if (verdict.verdict === 'block' || verdict.verdict === 'ask') {
      const spend = sumSpends(spends);
      return {
        id: subject.id,
        verdict: verdict.verdict,
        decidedBy: g.name,
        reason: reason ?? '',
        votes,
        ...(spend ? { spend } : {}),
      };
    }
  }
  const spend = sumSpends(spends);
  return {
    id: subject.id,
    verdict: redacted ? 'redact' : 'pass',
    ...(redacted ? { text } : {}),
    votes,
    ...(spend ? { spend } : {}),
  };
}

async function runCheck(
  g: GuardrailDefinition,
  text: string,
  subject: GuardrailSubject,
  request: GuardrailCheckRequest,
): Promise<GuardrailVerdict> {
  const { workflowId, agentName, tenant } = request.run;
  const given = await g.check(text, {
    stage: request.stage,
    workflowId,
    agentName,
    ...(tenant ? { tenant } : {}),
    ...(subject.toolName ? { toolName: subject.toolName } : {}),
    signal: Context.current().cancellationSignal,
  });
  const parsed = GuardrailVerdict.safeParse(given);
  // A verdict that cannot be read blocks (fails closed); it is the guardrail's bug, not the run's.
  if (!parsed.success)
    return { verdict: 'block', reason: `guardrail "${g.name}" returned a verdict that cannot be read` };
  return parsed.data;
}
