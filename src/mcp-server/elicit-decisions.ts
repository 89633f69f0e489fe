import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentStatus, ApprovalRecord } from '../domain';
import { redactSecrets } from '../domain/secrets/secret-patterns';
import type { ApiContext } from '../server/api-route';
import type { Identity } from '../server/auth/identity';
import { answerRun, decideCall } from '../server/protocols/run-actions';
import { cutText, MAX_ARGUMENTS_SHOWN } from './mcp-limits';

/** A rejection's reason and a question's answer, as the HTTP API's decision bodies bound them. */
const MAX_REASON_CHARS = 4_000;
const MAX_ANSWER_TEXT_CHARS = 32_000;

/** Sends one form elicitation to the MCP client; absent when the client cannot elicit. */
export type Elicit = (params: ElicitRequestFormParams) => Promise<ElicitResult>;

/** What became of the decisions a run waits for. */
export type DecisionsOutcome =
  /** Every waiting call and question was put to the client (and answered, or refused by the run). */
  | { kind: 'asked' }
  /** The person dismissed a request: the run keeps waiting, decided elsewhere. */
  | { kind: 'left'; what: string };

const APPROVAL_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    decision: { type: 'string', title: 'Decision', enum: ['approve', 'reject'] },
    reason: { type: 'string', title: 'Reason (required to reject)', maxLength: MAX_REASON_CHARS },
  },
  required: ['decision'],
};

const ANSWER_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { answer: { type: 'string', title: 'Answer', minLength: 1, maxLength: MAX_ANSWER_TEXT_CHARS } },
  required: ['answer'],
};

const shown = (value: unknown): string =>
  cutText(JSON.stringify(redactSecrets(value, [])) ?? '', MAX_ARGUMENTS_SHOWN, 'the run status');

export const approvalMessage = (runId: string, a: ApprovalRecord): string =>
  `Run ${runId}${a.agentPath ? ` (sub-agent ${a.agentPath.join(' > ')})` : ''} asks to call ${a.toolName} with ${shown(a.arguments)}. Why it needs a decision: ${a.reason}.`;

/**
 * How to decide without elicitation: the CLI commands (or `serve`'s decision routes) for every
 * call and question the run waits for.
 */
export function howToDecide(runId: string, status: AgentStatus): string {
  const lines = status.pendingApprovals.map(
    (a) =>
      `${approvalMessage(runId, a)}\n  thoughtline approve ${a.workflowId ?? runId} ${a.callId}   (or: thoughtline reject ${a.workflowId ?? runId} ${a.callId} --reason "...")`,
  );
  if (status.openQuestion)
    lines.push(
      `Run ${runId} asks: ${String(redactSecrets(status.openQuestion.question, []))}\n  thoughtline answer ${runId} "<your answer>"`,
    );
  return `${lines.join('\n')}\nThe run waits; fetch its result later with the get_run tool (runId ${runId}).`;
}

/**
 * Puts each call and question the run waits for, not asked before (`asked` keeps their ids), to
 * the MCP client, and sends the answer through the same checks as the HTTP API (access, roles,
 * signing). A declined approval is a rejection; a dismissed request is left to decide elsewhere.
 */
export async function elicitDecisions(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  status: AgentStatus,
  elicit: Elicit,
  asked: Set<string>,
): Promise<DecisionsOutcome> {
  for (const approval of status.pendingApprovals) {
    const key = `approval:${approval.workflowId ?? runId}:${approval.callId}`;
    if (asked.has(key)) continue;
    asked.add(key);
    const reply = await elicit({
      mode: 'form',
      message: approvalMessage(runId, approval),
      requestedSchema: APPROVAL_SCHEMA,
    });
    if (reply.action === 'cancel') return { kind: 'left', what: `the call to ${approval.toolName}` };
    const approved = reply.action === 'accept' && reply.content?.decision === 'approve';
    // Bounded as the HTTP API bounds them, whatever the client sent past its form's maxLength.
    const given =
      typeof reply.content?.reason === 'string' ? reply.content.reason.trim().slice(0, MAX_REASON_CHARS) : '';
    const reason = given || (approved ? undefined : `rejected in the MCP client by ${identity.id}`);
    // The sub-agent's own run when the record is a child's: decideCall finds it through the root.
    await decideCall(ctx, identity, runId, approval.callId, {
      approved,
      argumentsHash: approval.argumentsHash,
      ...(reason ? { reason } : {}),
    });
  }
  const question = status.openQuestion;
  if (question && !asked.has(`question:${question.callId}`)) {
    asked.add(`question:${question.callId}`);
    const reply = await elicit({
      mode: 'form',
      message: `Run ${runId} asks: ${String(redactSecrets(question.question, []))}`,
      requestedSchema: ANSWER_SCHEMA,
    });
    const text =
      typeof reply.content?.answer === 'string' ? reply.content.answer.trim().slice(0, MAX_ANSWER_TEXT_CHARS) : '';
    if (reply.action !== 'accept' || !text) return { kind: 'left', what: 'the question' };
    await answerRun(ctx, identity, runId, { text, callId: question.callId });
  }
  return { kind: 'asked' };
}
