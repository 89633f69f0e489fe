import { createHmac, randomUUID } from 'node:crypto';
import type { SoakArrival } from './soak-mix';
import { soakTask } from './soak-mix';

/**
 * The soak's HTTP client of `thoughtline serve`, as a team's client behind a load balancer is:
 * each request goes to the next instance, and one that fails to answer (an instance restarting)
 * is sent again to the other. Only requests that are safe to repeat are repeated: run starts carry
 * an Idempotency-Key, trigger deliveries their delivery id, decisions and cancellations are
 * idempotent at the workflow.
 */
export interface SoakApi {
  start(arrival: SoakArrival): Promise<string>;
  cancel(runId: string): Promise<void>;
  /** The run's pending approval, once it has one (polls). */
  pendingApproval(runId: string, timeoutMs: number): Promise<{ callId: string; argumentsHash: string }>;
  approve(runId: string, approval: { callId: string; argumentsHash: string }): Promise<void>;
  createSchedule(name: string, input: string): Promise<void>;
  deleteSchedule(name: string): Promise<void>;
  pauseSchedule(name: string): Promise<void>;
  /** The latest runs the schedule started (at most five), with when each started (epoch ms). */
  scheduleRuns(name: string): Promise<Array<{ runId: string; startedAt: number }>>;
  trigger(body: unknown): Promise<string>;
  /** Requests that had to be sent again after an instance failed to answer. */
  readonly retries: () => number;
}

export const SOAK_MODEL = { provider: 'anthropic', model: 'soak-model' } as const;

/** What a run of the mix is started with. */
export function startBody(a: SoakArrival): Record<string, unknown> {
  const base = {
    task: soakTask(a.kind, a.label, a.steps),
    tools: ['slow_job'],
    model: SOAK_MODEL,
    maxIterations: a.steps + 3,
  };
  if (a.kind === 'approval') return { ...base, approvals: { slow_job: 'always' }, approvalTimeoutMs: 3_600_000 };
  if (a.kind === 'team')
    return {
      task: base.task,
      model: SOAK_MODEL,
      // One budget for the whole tree: the lead's limit covers its sub-agent's iterations too.
      maxIterations: a.steps + 6,
      agents: { helper: { description: 'Runs a job', tools: ['slow_job'], limits: { maxIterations: a.steps + 3 } } },
    };
  return base;
}

class Unanswered extends Error {}

export function soakApi(o: {
  serves: ReadonlyArray<{ url: string }>;
  token: string;
  triggerSecret: string;
  /** Makes the Idempotency-Keys of this soak its own (its task queue): another soak on a kept cluster starts afresh. */
  keyPrefix: string;
  /** How long to keep trying the instances before giving up on a request. */
  patienceMs?: number;
}): SoakApi {
  let next = 0;
  let retries = 0;
  const patienceMs = o.patienceMs ?? 300_000;
  /**
   * `headers` is asked for at each attempt (a trigger's signature carries its time). `settledOnRetry`:
   * a 409 to a repeat means the first attempt took effect before its instance died (a decision
   * already made, a run already cancelled): the request did what it was for.
   */
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    headers: () => Record<string, string> = () => ({}),
    settledOnRetry = false,
  ) => {
    const deadline = performance.now() + patienceMs;
    for (let attempt = 0; ; attempt += 1) {
      const serve = o.serves[next++ % o.serves.length]!;
      try {
        const response = await fetch(`${serve.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${o.token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers(),
          },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await response.text();
        // 502–504: the instance is up but Temporal is not (a restart in progress): ask again.
        if (response.status >= 502 && response.status <= 504) throw new Unanswered(`${response.status} ${text}`);
        if (response.status === 409 && settledOnRetry && attempt > 0) return undefined;
        if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
        return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      } catch (err) {
        // A refused or cut connection (`fetch failed`, or `terminated` while the body was read).
        const unanswered =
          err instanceof Unanswered || (err instanceof TypeError && /fetch failed|terminated/.test(err.message));
        const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
        if (!(unanswered || timedOut) || performance.now() > deadline) throw err;
        retries += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** attempt)));
      }
    }
  };
  return {
    retries: () => retries,
    async start(arrival) {
      const key = `${o.keyPrefix}-${arrival.label}`;
      const started = await send('POST', '/v1/runs', startBody(arrival), () => ({ 'idempotency-key': key }));
      return String(started!['runId']);
    },
    async cancel(runId) {
      const reason = { reason: 'the soak cancels it midway' };
      await send('POST', `/v1/runs/${encodeURIComponent(runId)}/cancel`, reason, undefined, true);
    },
    async pendingApproval(runId, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const run = await send('GET', `/v1/runs/${encodeURIComponent(runId)}`);
        const pending =
          (run?.['pendingApprovals'] as Array<{ callId: string; argumentsHash: string }> | undefined) ?? [];
        if (pending[0]) return pending[0];
        if (performance.now() > deadline) throw new Error(`${runId} asked for no approval in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    },
    async approve(runId, { callId, argumentsHash }) {
      const path = `/v1/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(callId)}`;
      await send('POST', path, { approved: true, argumentsHash }, undefined, true);
    },
    async createSchedule(name, input) {
      await send('POST', '/v1/schedules', { name, agent: 'soak_scheduled', input, every: '1m', model: SOAK_MODEL });
    },
    async scheduleRuns(name) {
      const schedule = await send('GET', `/v1/schedules/${encodeURIComponent(name)}`);
      const recent = (schedule?.['recentRuns'] as Array<{ runId: string; startedAt: string }> | undefined) ?? [];
      return recent.map((r) => ({ runId: r.runId, startedAt: Date.parse(r.startedAt) }));
    },
    async pauseSchedule(name) {
      await send('POST', `/v1/schedules/${encodeURIComponent(name)}/pause`, { note: 'the soak has ended' });
    },
    async deleteSchedule(name) {
      await send('DELETE', `/v1/schedules/${encodeURIComponent(name)}`);
    },
    async trigger(body) {
      // One delivery id for every attempt: the server starts the run once per delivery.
      const delivery = randomUUID();
      const text = JSON.stringify(body);
      const sign = () => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        const mac = createHmac('sha256', o.triggerSecret).update(`${timestamp}.${delivery}.${text}`).digest('hex');
        return {
          'x-thoughtline-timestamp': timestamp,
          'x-thoughtline-delivery': delivery,
          'x-thoughtline-signature': `sha256=${mac}`,
        };
      };
      const started = await send('POST', '/v1/triggers/soak', text, sign);
      return String(started!['runId']);
    },
  };
}
