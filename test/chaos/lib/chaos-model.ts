import { hang, type FakeRequestBody, type FakeReply, type ScriptEntry } from '../../../src/testing';
import { plannedReply, runLabelOf, type RunPlan } from './chaos-plan';

/**
 * The model side of the chaos runs, as one stateless fake Messages script entry: it finds the
 * run from the task text and the turn from the assistant messages so far, logs the request, and
 * answers the planned reply. At a run's `model` kill point it holds the reply (`hang`) and asks
 * for the worker to be killed; at a `between … after model` point it asks for the kill shortly
 * after answering. Each point fires on the first request of its turn only.
 */
export interface ModelRequestLog {
  run: string;
  turn: number;
  /** performance.now() at arrival. */
  at: number;
  /** The parsed body, which is also the fake server's `RecordedRequest.body`: how a log entry finds its record. */
  body: FakeRequestBody;
}

export interface Killer {
  readonly generation: number;
  kill(generation: number, reason: string): Promise<void>;
}

export interface ChaosModel {
  entry: ScriptEntry;
  readonly requests: readonly ModelRequestLog[];
  /** Labels of runs whose kill point fired here. */
  readonly fired: ReadonlySet<string>;
}

// Time for a reply to leave the fake server before a `between` kill's own delay starts.
const REPLY_SENT_MS = 20;

export interface ChaosModelOptions {
  killer?: Killer;
  /** Every reply waits this long first, so runs are still going when the chaos strikes. Default 0. */
  replyDelayMs?: number;
}

export function createChaosModel(
  plans: ReadonlyMap<string, RunPlan>,
  { killer, replyDelayMs = 0 }: ChaosModelOptions = {},
): ChaosModel {
  const requests: ModelRequestLog[] = [];
  const fired = new Set<string>();
  const entry = (body: FakeRequestBody): FakeReply => {
    const label = runLabelOf(body.messages[0]);
    const plan = label === undefined ? undefined : plans.get(label);
    if (!plan) throw new Error(`a request for no planned run: ${JSON.stringify(body.messages[0]).slice(0, 200)}`);
    const turn = body.messages.filter((m) => m.role === 'assistant').length;
    const first = !requests.some((r) => r.run === plan.label && r.turn === turn);
    requests.push({ run: plan.label, turn, at: performance.now(), body });
    const reply = { ...plannedReply(plan, turn), delayMs: replyDelayMs };
    const point = plan.kill;
    if (!killer || !first || point.turn !== turn) return reply;
    const generation = killer.generation;
    const reason = `${plan.label} ${describeKillPoint(plan)}`;
    if (point.kind === 'model') {
      fired.add(plan.label);
      setTimeout(() => void killer.kill(generation, reason), point.delayMs);
      return hang({ reply, afterEvents: point.afterEvents });
    }
    if (point.kind === 'between' && point.after === 'model') {
      fired.add(plan.label);
      setTimeout(() => void killer.kill(generation, reason), REPLY_SENT_MS + replyDelayMs + point.delayMs);
    }
    return reply;
  };
  return { entry, requests, fired };
}

export function describeKillPoint({ kill }: RunPlan): string {
  switch (kill.kind) {
    case 'model':
      return `during model call ${kill.turn} (after ${kill.afterEvents} events, held ${kill.delayMs} ms)`;
    case 'tool':
      return `after the side effect of tool call ${kill.turn}.${kill.call} (held ${kill.delayMs} ms)`;
    case 'between':
      return `between steps, ${kill.delayMs} ms after ${kill.after} reply ${kill.turn}`;
  }
}
