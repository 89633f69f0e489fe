import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AgentClient } from '../../client/agent-client';
import { startOnce } from '../../client/start/start-once';
import type { SignedDecisionPolicy } from '../../domain/approval/signed-decision';
import { MAX_CONTEXT_FILE_BYTES } from '../../domain/run/agent-context';
import { originOfMemo } from '../../domain/run/run-origin';
import { ApiError } from '../api-error';
import { defineRoute, type ApiRoute } from '../api-route';
import { RunLinks } from '../api-schemas';
import { signedDecisionKeys } from '../protocols/protocol-run-input';
import { TriggerName, type Trigger } from './trigger-config';
import {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_MISMATCH,
  TIMESTAMP_HEADER,
  verifyDelivery,
} from './verify-delivery';

/** The largest delivery body: it becomes one context file of the run, whose limit this is. */
export const MAX_TRIGGER_BODY_BYTES = MAX_CONTEXT_FILE_BYTES;

/** The context file a delivery's body becomes. */
export const TRIGGER_PAYLOAD_FILE = 'webhook-payload';

const TriggerParams = z.strictObject({ name: TriggerName });

export const TriggerResponse = z.object({
  runId: z.string(),
  links: RunLinks,
  /** True when this delivery id had started the run already (a redelivery): nothing new started. */
  duplicate: z.boolean(),
});

/** A run's id from its trigger and delivery: the same delivery always names the same run. */
export const triggerRunId = (trigger: string, deliveryId: string): string => `trigger.${trigger}.${deliveryId}`;

const links = (runId: string) => {
  const self = `/v1/runs/${encodeURIComponent(runId)}`;
  return { self, chain: `${self}/chain`, events: `${self}/events` };
};

/**
 * Starts the trigger's run, once per delivery id (startOnce, under an id derived from it): a
 * redelivery answers the run the first delivery started, at no action (Temporal does not bill a
 * refused start). After the namespace's retention the old run is gone and the same delivery would
 * start a new one. `signed` is the server's keys, as every run serve starts holds them (required
 * with --require-signatures).
 */
async function startDelivery(
  agents: AgentClient,
  trigger: Trigger,
  deliveryId: string,
  body: Buffer,
  signed: { signedDecisions?: SignedDecisionPolicy },
): Promise<{ runId: string; duplicate: boolean }> {
  const runId = triggerRunId(trigger.name, deliveryId);
  const content = body.toString('utf8');
  const started = await startOnce(
    agents,
    {
      task: trigger.task,
      agent: trigger.agent,
      ...(trigger.model ? { model: trigger.model } : {}),
      caller: { id: trigger.owner.id, roles: [], ...(trigger.owner.tenant ? { tenant: trigger.owner.tenant } : {}) },
      // Redacted by start like every context; bounded by MAX_TRIGGER_BODY_BYTES before it gets here.
      context: {
        data: { trigger: trigger.name, deliveryId },
        files: [{ name: TRIGGER_PAYLOAD_FILE, content, bytes: body.length }],
      },
      ...signed,
    },
    { workflowId: runId, origin: { kind: 'trigger', trigger: trigger.name, deliveryId } },
  );
  if (!started.duplicate) return started;
  // The id is taken: by this trigger's earlier delivery, or (never by Thoughtline) by something else.
  const description = await agents.getHandle(runId).describe();
  const origin = originOfMemo(description.memo);
  if (origin?.kind !== 'trigger' || origin.trigger !== trigger.name || origin.deliveryId !== deliveryId)
    throw new ApiError('conflict', `The run id ${runId} is taken by a run this trigger did not start.`);
  return { runId, duplicate: true };
}

/**
 * The secret an unknown trigger name is checked against: random per process, never written
 * anywhere, so no signature matches it. An unknown name then costs the same HMAC and answers the
 * same 401, in the same words, as a known name with a bad signature: a caller without a trigger's
 * secret cannot tell which names exist.
 */
const NO_SECRET = randomBytes(32);

export const triggerRoute = defineRoute({
  method: 'POST',
  url: '/v1/triggers/:name',
  operationId: 'fireTrigger',
  summary: `A signed webhook delivery: starts the trigger's agent with the raw body (any content type, at most ${MAX_TRIGGER_BODY_BYTES} bytes) as its context, once per delivery id. No bearer token: the request carries ${SIGNATURE_HEADER} (sha256= and the hex HMAC-SHA256 of timestamp + "." + delivery id + "." + body under the trigger's secret), ${TIMESTAMP_HEADER} (Unix seconds, within 5 minutes) and ${DELIVERY_HEADER}. 201 for a new run (1 action), 200 with the same run for a redelivery (none). An unknown trigger name is the same 401 as a bad signature`,
  public: true,
  rawBody: true,
  bodyLimit: MAX_TRIGGER_BODY_BYTES,
  params: TriggerParams,
  response: {
    status: 201,
    description: 'The run this delivery started',
    schema: TriggerResponse,
    alsoAnswers: { status: 200, description: 'A redelivery: the run this delivery id had started; nothing new' },
  },
  errors: [400, 401, 409, 413, 503],
  async handle({ ctx, params, request, reply }) {
    const trigger = ctx.triggers?.get(params.name);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    // The signature is checked before the name is revealed: an unknown name fails it (NO_SECRET).
    const check = verifyDelivery(trigger?.secret ?? NO_SECRET, request.headers, body, Date.now());
    if (!check.ok || !trigger) throw new ApiError('unauthenticated', check.ok ? SIGNATURE_MISMATCH : check.problem);
    const { runId, duplicate } = await startDelivery(
      ctx.agents,
      trigger,
      check.deliveryId,
      body,
      signedDecisionKeys(ctx),
    );
    const answer = { runId, links: links(runId), duplicate };
    // The route's status is 201; a redelivery answers 200 with the same run.
    if (duplicate) return reply.status(200).send(answer);
    return answer;
  },
});

export const TRIGGER_ROUTES: readonly ApiRoute[] = [triggerRoute];
