import { defineRoute, type ApiRoute } from '../api-route';
import {
  AcceptedResponse,
  AnswerBody,
  AnswerResponse,
  ApprovalBody,
  ApprovalParams,
  CancelBody,
  RaiseBudgetBody,
  RaiseBudgetResponse,
  RunIdParams,
  SteerBody,
} from '../api-schemas';
import { ApprovalRecord } from '../../domain';
import { answerRun, cancelRun, decideCall, raiseRunBudget, steerRun } from '../protocols/run-actions';

export const decideApproval = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/approvals/:callId',
  operationId: 'decideApproval',
  summary: 'Approve or reject a call awaiting approval in the run or its sub-agents, as the authenticated identity',
  params: ApprovalParams,
  body: ApprovalBody,
  response: { status: 200, description: 'The decided approval record', schema: ApprovalRecord },
  errors: [400, 401, 403, 404, 409, 413],
  handle: ({ ctx, identity, params, body }) => decideCall(ctx, identity, params.id, params.callId, body),
});

export const cancelRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/cancel',
  operationId: 'cancelRun',
  summary: 'Ask the run to stop: the current step finishes, then a summary; the chain names the caller',
  params: RunIdParams,
  body: CancelBody,
  optionalBody: true,
  response: { status: 202, description: 'The cancel signal was sent', schema: AcceptedResponse },
  errors: [400, 401, 404, 409],
  async handle({ ctx, identity, params, body }) {
    await cancelRun(ctx, identity, params.id, body.reason);
    return { accepted: true as const };
  },
});

export const steerRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/steer',
  operationId: 'steerRun',
  summary: "Add an instruction before the agent's next thought, as the caller",
  params: RunIdParams,
  body: SteerBody,
  response: { status: 202, description: 'The instruction was sent', schema: AcceptedResponse },
  errors: [400, 401, 404, 409, 413],
  async handle({ ctx, identity, params, body }) {
    await steerRun(ctx, identity, params.id, body.text);
    return { accepted: true as const };
  },
});

export const answerRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/answers',
  operationId: 'answerQuestion',
  summary: 'Answer the question the agent asked, as the caller',
  params: RunIdParams,
  body: AnswerBody,
  response: { status: 200, description: 'The answer as the run recorded it', schema: AnswerResponse },
  errors: [400, 401, 404, 409, 413],
  async handle({ ctx, identity, params, body }) {
    return { answer: await answerRun(ctx, identity, params.id, body) };
  },
});

export const raiseBudgetRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/budget',
  operationId: 'raiseBudget',
  summary: "Raise the budget a paused run waits at (onBudget: 'ask'), or stop it, as the authenticated identity",
  params: RunIdParams,
  body: RaiseBudgetBody,
  response: { status: 200, description: 'The run’s answer, and the pause it answered', schema: RaiseBudgetResponse },
  errors: [400, 401, 403, 404, 409, 413],
  handle: ({ ctx, identity, params, body }) => raiseRunBudget(ctx, identity, params.id, body),
});

export const DECISION_ROUTES: readonly ApiRoute[] = [
  decideApproval,
  cancelRunRoute,
  steerRunRoute,
  answerRunRoute,
  raiseBudgetRoute,
];
