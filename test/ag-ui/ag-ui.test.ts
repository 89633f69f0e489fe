import { randomUUID } from 'node:crypto';
import { HttpAgent, type AgentSubscriber, type BaseEvent, type Interrupt } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { readThread, threadWorkflowId } from '../../src/client/threads/thread-client';
import { MAX_AG_UI_BODY_BYTES } from '../../src/server/ag-ui/register-ag-ui-routes';
import type { RunEnding } from '../../src/domain/run/run-ending';
import { defineTool } from '../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { threadModels } from '../threads/thread-models';
import { startAgUiServers, streaming, type AgUiServers } from './ag-ui-harness';

const chargeCard = defineTool({
  name: 'charge_card',
  description: 'Charges a card',
  input: z.object({ card: z.string(), amount: z.number() }),
  approval: 'always',
  execute: ({ amount }) => ({ amount, status: 'charged' }),
});

const env = useTestEnv();
const models = threadModels();
let s: AgUiServers;

beforeAll(async () => {
  s = await startAgUiServers(env, { model: streaming(models), tools: [...testTools().tools, chargeCard] });
});
afterAll(async () => s?.close());

const DEV = { id: 'dev', roles: ['developer'], tenant: 'acme' };
const key = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
const auth = (who: 'dev' | 'rival' = 'dev') => ({ Authorization: `Bearer ${s.tokens[who]}` });

/** An HttpAgent on `server`'s endpoint for the catalogue's generic agent: a new one per request, as a stateless front end. */
function frontEnd(server: 'a' | 'b', threadId: string, who: 'dev' | 'rival' = 'dev') {
  return new HttpAgent({ url: `${s[server].url}/v1/ag-ui/agent`, headers: auth(who), threadId });
}

/** Runs the agent, recording every event the client parsed and verified. */
async function run(
  agent: HttpAgent,
  parameters: Parameters<HttpAgent['runAgent']>[0] = {},
  more: AgentSubscriber = {},
) {
  const events: BaseEvent[] = [];
  const { result } = await agent.runAgent(parameters, {
    ...more,
    onEvent: ({ event }) => {
      events.push(event);
      more.onEvent?.({ event } as never);
    },
  });
  for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
  // RUN_FINISHED's result is the run's ending (runEnding); its answer is what a front end shows.
  const ending = result as RunEnding | undefined;
  return {
    events,
    types: events.map((e) => e.type),
    result: ending,
    answer: ending?.answer,
    interrupts: agent.pendingInterrupts as Interrupt[],
  };
}

function userTurn(agent: HttpAgent, text: string): void {
  agent.addMessage({ id: randomUUID(), role: 'user', content: text });
}

describe('GET /v1/runs/:id/ag-ui', () => {
  it('streams a run to its end as AG-UI events the client parses: streamed text, reasoning, tool call and result, final answer', async () => {
    const k = key('get');
    const held = models.hold(k, [
      { content: [say('I will look up alpha.'), useTool('lookup', { key: 'alpha' })] },
      { content: [say('Alpha is 50, done.'), useTool('finish', { result: 'alpha=50' })] },
    ]);
    onTestFinished(() => held.release());
    const handle = await s.agents.start({ task: `${k}: find alpha`, model: SCRIPTED_MODEL, caller: DEV });
    // HttpAgent posts; the same client pipeline reads a GET stream through its `fetch` option.
    const agent = new HttpAgent({
      url: `${s.a.url}/v1/runs/${handle.workflowId}/ag-ui`,
      headers: auth(),
      fetch: (url, init) => fetch(url, { headers: init?.headers, signal: init?.signal }),
    });
    const got = await run(agent, {}, { onRunStartedEvent: () => held.release() });
    expect(got.types[0]).toBe('RUN_STARTED');
    expect(got.types.at(-1)).toBe('RUN_FINISHED');
    for (const type of [
      'STEP_STARTED',
      'STEP_FINISHED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
    ])
      expect(got.types, type).toContain(type);
    const streamed = got.events
      .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
      .map((e) => (e as unknown as { delta: string }).delta);
    expect(streamed.join('')).toContain('I will look up alpha.');
    expect(streamed.join('')).toContain('alpha=50');
    expect(got.answer).toBe('alpha=50');
    expect(got.types).not.toContain('REASONING_START');
    const call = got.events.find((e) => e.type === 'TOOL_CALL_START') as { toolCallName: string } | undefined;
    expect(call?.toolCallName).toBe('lookup');
    const result = got.events.find((e) => e.type === 'TOOL_CALL_RESULT') as { content: string } | undefined;
    expect(JSON.parse(result!.content)).toEqual({ key: 'alpha', value: 50 });
    // The client holds the conversation the stream described.
    expect(agent.messages.some((m) => m.role === 'tool')).toBe(true);
  });

  it('shares the plan as state: a STATE_SNAPSHOT, then STATE_DELTAs as tasks complete; the client’s state ends with the plan done', async () => {
    const k = key('plan');
    const tasks = [
      { id: 't1', description: 'Look up alpha', dependencies: [], estimated_complexity: 'low' },
      { id: 't2', description: 'Answer', dependencies: ['t1'], estimated_complexity: 'low' },
    ];
    // Each turn waits for the client to have seen the last one's state (connected, the plan, t1
    // done): no task completes before it watches, and none before its delta went out alone.
    const held = models.holdTurns(k, [
      { content: [say(JSON.stringify({ tasks }))] },
      { content: [say('First task.'), useTool('update_task', { task_id: 't1', status: 'completed' })] },
      { content: [say('Second task.'), useTool('update_task', { task_id: 't2', status: 'completed' })] },
      { content: [say('All done.'), useTool('finish', { result: 'planned' })] },
    ]);
    const handle = await s.agents.start({
      task: `${k}: plan it`,
      model: SCRIPTED_MODEL,
      caller: DEV,
      planning: { reflectEvery: 0 },
    });
    const agent = new HttpAgent({
      url: `${s.a.url}/v1/runs/${handle.workflowId}/ag-ui`,
      headers: auth(),
      fetch: (url, init) => fetch(url, { headers: init?.headers, signal: init?.signal }),
    });
    let first = true;
    const got = await run(
      agent,
      {},
      {
        onEvent: ({ event }) => {
          if (first || event.type === 'STATE_SNAPSHOT' || event.type === 'STATE_DELTA') held.release();
          first = false;
        },
      },
    );
    expect(got.types).toContain('STATE_SNAPSHOT');
    expect(got.types.filter((t) => t === 'STATE_DELTA').length).toBeGreaterThanOrEqual(2);
    expect(agent.state).toMatchObject({ plan: { completed: 2, total: 2 } });
    expect(got.answer).toBe('planned');
  });

  it('resumes after Last-Event-ID: only later steps, as reasoning when the text did not stream to this client', async () => {
    const k = key('resume');
    models.script(k, [
      { content: [say('Looking up beta.'), useTool('lookup', { key: 'beta' })] },
      { content: [say('Beta known.'), useTool('finish', { result: 'beta=40' })] },
    ]);
    const handle = await s.agents.start({ task: `${k}: find beta`, model: SCRIPTED_MODEL, caller: DEV });
    await handle.result();
    const whole = await rawStream(`/v1/runs/${handle.workflowId}/ag-ui`);
    const callStep = whole.find((e) => e.data.type === 'TOOL_CALL_END')!.id;
    const rest = await rawStream(`/v1/runs/${handle.workflowId}/ag-ui`, { 'last-event-id': callStep });
    expect(rest[0]!.data.type).toBe('RUN_STARTED');
    expect(rest.map((e) => e.data.type)).not.toContain('TOOL_CALL_START');
    expect(rest.map((e) => e.data.type)).toContain('TOOL_CALL_RESULT');
    expect(rest.map((e) => e.data.type)).toContain('REASONING_MESSAGE_CONTENT');
    expect(rest.at(-1)!.data).toMatchObject({
      type: 'RUN_FINISHED',
      result: { state: 'completed', terminationReason: 'success', answer: 'beta=40' },
      outcome: { type: 'success' },
    });
    for (const e of rest) expect(Number(e.id.split('.')[0])).toBeGreaterThanOrEqual(Number(callStep));
  });

  it('answers 401 without a token and 404 for another tenant’s run', async () => {
    const k = key('private');
    models.script(k, [{ content: [say('Done.'), useTool('finish', { result: 'ok' })] }]);
    const handle = await s.agents.start({ task: `${k}: hi`, model: SCRIPTED_MODEL, caller: DEV });
    const none = await fetch(`${s.a.url}/v1/runs/${handle.workflowId}/ag-ui`);
    expect(none.status).toBe(401);
    const rival = await fetch(`${s.a.url}/v1/runs/${handle.workflowId}/ag-ui`, { headers: auth('rival') });
    expect(rival.status).toBe(404);
    expect(((await rival.json()) as { error: { code: string } }).error.code).toBe('not_found');
    await handle.result();
  });
});

describe('POST /v1/ag-ui/:agent (a stateless front end)', () => {
  it('maps a thread to one conversation: a second request from a new client on another server sees the first turn', async () => {
    const threadId = `t-${randomUUID()}`;
    const first = key('first');
    const second = key('second');
    models.script(first, [{ content: [say('Paris, surely.'), useTool('finish', { result: 'Paris' })] }]);
    const model2 = models.script(second, [
      { content: [say('From the thread.'), useTool('finish', { result: 'France' })] },
    ]);

    const one = frontEnd('a', threadId);
    userTurn(one, `${first}: capital of France?`);
    const got1 = await run(one);
    expect(got1.answer).toBe('Paris');
    expect(got1.types[0]).toBe('RUN_STARTED');
    expect(got1.events[0]).toMatchObject({ threadId });

    const two = frontEnd('b', threadId);
    userTurn(two, `${second}: which country was that?`);
    const got2 = await run(two);
    expect(got2.answer).toBe('France');
    expect(JSON.stringify(model2.calls[0]!.messages)).toContain('Paris');
    const view = await readThread(s.agents, threadWorkflowId(DEV, threadId));
    expect(view?.turns.map((t) => t.answer)).toEqual(['Paris', 'France']);
  });

  it('ends with an interrupt for an approval; a new client on another server resumes it and the run completes', async () => {
    const threadId = `t-${randomUUID()}`;
    const k = key('charge');
    models.script(k, [
      { content: [say('Charging the card.'), useTool('charge_card', { card: 'x-1', amount: 5 })] },
      { content: [say('Charged.'), useTool('finish', { result: 'charged 5' })] },
    ]);
    const one = frontEnd('a', threadId);
    userTurn(one, `${k}: charge 5`);
    const got1 = await run(one);
    const finished = got1.events.at(-1) as { type: string; outcome: { type: string; interrupts: Interrupt[] } };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome.type).toBe('interrupt');
    const [interrupt] = finished.outcome.interrupts;
    expect(interrupt).toMatchObject({
      reason: 'tool_approval',
      metadata: { thoughtline: { toolName: 'charge_card' } },
    });
    expect(got1.interrupts.map((i) => i.id)).toEqual([interrupt!.id]);

    // Another tenant cannot answer it: the interrupt names a run of someone else's thread.
    const rival = await fetch(`${s.b.url}/v1/ag-ui/agent`, {
      method: 'POST',
      headers: { ...auth('rival'), 'content-type': 'application/json' },
      body: JSON.stringify(resumeBody(threadId, interrupt!.id)),
    });
    expect(rival.status).toBe(404);

    // A new message while the turn waits is refused: answer the interrupt first.
    const early = frontEnd('b', threadId);
    userTurn(early, `${k}: and another thing`);
    await expect(early.runAgent()).rejects.toThrow(/HTTP 409.*Turn 1 is still running/);

    const two = frontEnd('b', threadId);
    const got2 = await run(two, {
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(got2.types).toContain('TOOL_CALL_RESULT');
    // The call went out once over the two requests: the resume goes on where the first stopped.
    const calls = [...got1.events, ...got2.events].filter((e) => e.type === 'TOOL_CALL_START');
    expect(calls.map((e) => (e as unknown as { toolCallId: string }).toolCallId)).toEqual([interrupt!.toolCallId]);
    expect(got2.answer).toBe('charged 5');
    const view = await readThread(s.agents, threadWorkflowId(DEV, threadId));
    expect(view?.turns[0]).toMatchObject({ status: 'completed', answer: 'charged 5' });
  });

  it('ends with a question interrupt; the answer in a new client’s resume reaches the run', async () => {
    const threadId = `t-${randomUUID()}`;
    const k = key('ask');
    const scripted = models.script(k, [
      { content: [say('I need the city.'), useTool('ask_person', { question: 'Which city do you mean?' })] },
      { content: [say('Now I know.'), useTool('finish', { result: 'weather for Lyon' })] },
    ]);
    const one = frontEnd('a', threadId);
    userTurn(one, `${k}: the weather, please`);
    const got1 = await run(one);
    expect(got1.interrupts).toMatchObject([{ reason: 'question', message: 'Which city do you mean?' }]);
    const got2 = await run(frontEnd('b', threadId), {
      resume: [{ interruptId: got1.interrupts[0]!.id, status: 'resolved', payload: { text: 'Lyon' } }],
    });
    expect(got2.answer).toBe('weather for Lyon');
    expect(JSON.stringify(scripted.calls[1]!.messages)).toContain('Lyon');
  });

  it('refuses a body over 2 MiB with 413, and reads one at the limit', async () => {
    const post = (bytes: number) => {
      const body = JSON.stringify({ ...resumeBody('x', 'y'), forwardedProps: { pad: '' } });
      const padded = body.replace('"pad":""', `"pad":"${'p'.repeat(bytes - body.length)}"`);
      expect(padded.length).toBe(bytes);
      return fetch(`${s.a.url}/v1/ag-ui/agent`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: padded,
      });
    };
    // At the limit it is read (and refused for its made-up interrupt, a 400, not a 413).
    expect((await post(MAX_AG_UI_BODY_BYTES)).status).toBe(400);
    expect((await post(MAX_AG_UI_BODY_BYTES + 1)).status).toBe(413);
  });

  it('refuses without a token (401), for an unknown agent (404), and a body that is no RunAgentInput (400)', async () => {
    const anonymous = new HttpAgent({ url: `${s.a.url}/v1/ag-ui/agent`, threadId: 'x' });
    userTurn(anonymous, 'hi');
    await expect(anonymous.runAgent()).rejects.toThrow(/HTTP 401/);
    const post = (url: string, body: unknown) =>
      fetch(`${s.a.url}${url}`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unknown = await post('/v1/ag-ui/nobody', resumeBody('x', 'y'));
    expect(unknown.status).toBe(404);
    const bad = await post('/v1/ag-ui/agent', { threadId: 'x' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/Send an AG-UI RunAgentInput/);
    const noText = await post('/v1/ag-ui/agent', { ...resumeBody('x', 'y'), resume: [] });
    expect(noText.status).toBe(400);
    const madeUp = await post('/v1/ag-ui/agent', resumeBody('x', 'not-ours'));
    expect(madeUp.status).toBe(400);
  });
});

function resumeBody(threadId: string, interruptId: string) {
  return {
    threadId,
    runId: randomUUID(),
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
  };
}

/** The raw SSE frames of a GET, with their ids. */
async function rawStream(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${s.a.url}${url}`, { headers: { ...auth(), ...headers } });
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.includes('data: '))
    .map((frame) => ({
      id: /^id: (.*)$/m.exec(frame)![1]!,
      data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as Record<string, unknown>,
    }));
}
