import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../src/activities';
import { DEMO_TASK, TEAM_AGENTS, TEAM_TASK } from '../../src/cli/commands/run-and-watch/demo';
import { weatherDemoTurn } from '../../src/demo/offline-weather-model';
import { weatherTool } from '../../src/demo/weather-tool';
import { OFFLINE_MODEL_NAME, createOfflineModel } from '../../src/offline/offline-model';
import type { AgentResult, ModelRequest, ReasoningStep } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { waitFor } from '../helpers/people-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

const env = useTestEnv();

/** A user's own tools, as a `--tools` module would export them: nothing Thoughtline's model was scripted for. */
const orders = defineTool({
  name: 'lookup_order',
  description: "Look up an order's shipping status by its id",
  input: z.object({
    order_id: z.string().min(3).describe('The order id, e.g. "A-1234"'),
    include_items: z.boolean().optional(),
  }),
  execute: ({ order_id }) => ({ order_id, status: order_id === 'A-1234' ? 'shipped on 3 May' : 'unknown order' }),
});
const currency = defineTool({
  name: 'convert_currency',
  description: 'Convert an amount of money from one currency to another',
  input: z.object({
    amount: z.number().positive(),
    from: z.enum(['USD', 'EUR', 'GBP']),
    to: z.enum(['USD', 'EUR', 'GBP']),
  }),
  execute: ({ amount, from, to }) => ({
    amount,
    from,
    to,
    converted: from === to ? amount : Math.round(amount * 0.9 * 100) / 100,
  }),
});
const invoices = defineTool({
  name: 'fetch_invoice',
  description: 'Fetch an invoice by its number',
  input: z.object({ number: z.number().int().positive() }),
  retry: { maximumAttempts: 1 },
  execute: () => {
    throw new Error('invoice service unreachable');
  },
});
/** Stands in for the demo's weather tool on a bad day: the team demo's sub-agents all fail. */
const brokenWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ location: z.string(), units: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
  retry: { maximumAttempts: 1 },
  execute: () => {
    throw new Error('weather service down');
  },
});

/** The offline model, counting its requests by task so a test can see how many turns a run took. */
const requests: ModelRequest[] = [];
const offline = createOfflineModel([weatherDemoTurn]);
const counted: ModelProvider = {
  name: 'offline',
  complete: (request, signal, hooks) => (requests.push(request), offline.complete(request, signal, hooks)),
};

let h: AgentHarness;
/** The CLI's own tools, as `npm run demo` runs them. */
let demo: AgentHarness;
let running: Promise<void>[] = [];
beforeAll(async () => {
  h = await createHarness(env, { tools: [orders, currency, invoices, brokenWeather], models: { anthropic: counted } });
  demo = await createHarness(env, { tools: [weatherTool], models: { anthropic: offline } });
  running = [h.worker.run(), demo.worker.run()];
});
afterAll(async () => {
  h?.worker.shutdown();
  demo?.worker.shutdown();
  await Promise.all(running);
});

const toolCalls = (result: AgentResult, name: string) =>
  result.chain.steps.flatMap((s: ReasoningStep) =>
    s.type === 'tool_call' && s.toolCall.toolName === name ? [s.toolCall] : [],
  );
const run = async (task: string, extra: Record<string, unknown> = {}) =>
  (await h.agents.start({ task, maxIterations: 10, ...extra })).result();

describe('the offline model with a user’s own tools (real dev server)', () => {
  it('calls the tool the task is about with arguments from the task, and finishes quoting its result', async () => {
    const result = await run('What is the status of order A-1234?');
    expect(result).toMatchObject({ success: true, terminationReason: 'success', toolCalls: 1 });
    expect(toolCalls(result, 'lookup_order')[0]?.arguments).toEqual({ order_id: 'A-1234' });
    expect(result.finalAnswer).toMatch(/^\[offline model\]/);
    expect(result.finalAnswer).toContain('shipped on 3 May');
    // Its replies say which model answered: the offline one, not the Claude model the run asked for.
    const replies = result.chain.steps.filter((s) => s.type === 'tool_result' && s.model !== undefined);
    expect(replies.map((s) => s.model)).toEqual([OFFLINE_MODEL_NAME, OFFLINE_MODEL_NAME]);
  });

  it('calls independent read-only tools in parallel, in one turn', async () => {
    const task = 'Look up order A-1234 and convert 20 USD to EUR.';
    const result = await run(task);
    expect(result).toMatchObject({ success: true, toolCalls: 2 });
    expect(toolCalls(result, 'convert_currency')[0]?.arguments).toEqual({ amount: 20, from: 'USD', to: 'EUR' });
    // One turn calls both, the next finishes.
    expect(
      requests.filter((r) => r.messages[0]?.content[0]?.type === 'text' && r.messages[0].content[0].text === task),
    ).toHaveLength(2);
    expect(result.finalAnswer).toContain('"converted":18');
  });

  it('ends an off-topic task as a failure that says why, without calling any tool', async () => {
    const result = await run('Write me a poem about the sea.');
    expect(result).toMatchObject({ success: false, terminationReason: 'failure', toolCalls: 0 });
    expect(result.finalAnswer).toMatch(/^\[offline model\] No tool fits/);
    expect(result.finalAnswer).toContain('lookup_order');
  });

  it('ends a failure when every call of the fitting tool failed, quoting the error', async () => {
    const result = await run('Fetch invoice 77.');
    expect(result).toMatchObject({ success: false, terminationReason: 'failure', toolCalls: 1 });
    expect(toolCalls(result, 'fetch_invoice')[0]?.arguments).toEqual({ number: 77 });
    expect(result.finalAnswer).toContain('invoice service unreachable');
  });

  it('asks a question when allowed, and goes on with the answer', async () => {
    const handle = await h.agents.start({
      task: 'Ask me which order to check, then look up its status.',
      allowQuestions: true,
      maxIterations: 10,
    });
    const status = await waitFor(
      'the open question',
      async () => (await h.agents.status(handle.workflowId)).openQuestion,
    );
    expect(status.question).toContain('Before I start');
    await h.agents.answer(handle.workflowId, 'A-1234', 'alice');
    const result = await handle.result();
    expect(result).toMatchObject({ success: true });
    expect(toolCalls(result, 'lookup_order')[0]?.arguments).toEqual({ order_id: 'A-1234' });
    expect(result.finalAnswer).toContain('shipped on 3 May');
  });

  it('asks when no tool fits and questions are allowed; an answer that names no tool still ends in failure', async () => {
    const handle = await h.agents.start({ task: 'Write me a haiku.', allowQuestions: true, maxIterations: 10 });
    const status = await waitFor(
      'the open question',
      async () => (await h.agents.status(handle.workflowId)).openQuestion,
    );
    expect(status.question).toContain('No tool I have fits');
    await h.agents.answer(handle.workflowId, 'about autumn leaves', 'alice');
    const result = await handle.result();
    expect(result).toMatchObject({ success: false, terminationReason: 'failure', toolCalls: 0 });
  });

  it('makes a plan, works through its tasks and finishes', async () => {
    const result = await run('What is the status of order A-1234?', { planning: {} });
    expect(result).toMatchObject({ success: true, terminationReason: 'success' });
    expect(result.plan?.source).toBe('model');
    expect(result.plan?.tasks.map((t) => [t.id, t.status])).toEqual([
      ['t1', 'completed'],
      ['t2', 'completed'],
    ]);
    expect(result.plan?.tasks[0]?.note).toContain('shipped on 3 May');
    expect(result.finalAnswer).toContain('shipped on 3 May');
  });

  it('a plan whose task fails ends in failure, saying which task', async () => {
    const result = await run('Fetch invoice 77.', { planning: {} });
    expect(result).toMatchObject({ success: false, terminationReason: 'failure' });
    expect(result.plan?.tasks.map((t) => t.status)).toEqual(['failed', 'blocked']);
    expect(result.finalAnswer).toContain('t1 is failed');
  });

  it('calls a sub-agent like a tool; the sub-agent serves its task with its own tools', async () => {
    const agents = {
      order_agent: {
        description: 'Finds the status of an order',
        instructions: 'Use lookup_order.',
        tools: ['lookup_order'],
        limits: { maxIterations: 4 },
      },
    };
    const result = await run('Have the order agent find the status of order A-1234.', {
      agents,
      tools: ['order_agent'],
      tokenBudget: 200_000,
    });
    expect(result).toMatchObject({ success: true });
    expect(toolCalls(result, 'order_agent')).toHaveLength(1);
    expect(result.finalAnswer).toContain('shipped on 3 May');
  });

  it('the team demo with failing sub-agents ends in failure, with no made-up reading', async () => {
    const agents = {
      weather_agent: {
        description: 'Finds the current weather of one city and answers with the reading.',
        instructions: 'Use get_weather.',
        tools: ['get_weather'],
        limits: { maxIterations: 4 },
      },
    };
    const result = await run('Compare the weather in Paris, Tokyo and Berlin.', { agents, tokenBudget: 200_000 });
    expect(result).toMatchObject({ success: false, terminationReason: 'failure' });
    expect(result.finalAnswer).toContain('No weather reading came back');
    expect(result.finalAnswer).not.toMatch(/undefined|NaN/);
  });

  it('the demo and the team demo still compare the cities, marked as the offline model', async () => {
    const single = await (await demo.agents.start({ task: DEMO_TASK })).result();
    expect(single).toMatchObject({ success: true, toolCalls: 2 });
    expect(single.finalAnswer).toBe(
      '[offline model] San Francisco: 18°C, partly cloudy; Paris: 12°C, light rain. San Francisco is the warmest, by 6 degrees.',
    );
    const team = await (
      await demo.agents.start({ task: TEAM_TASK, agentName: 'weather_lead', agents: TEAM_AGENTS, tokenBudget: 200_000 })
    ).result();
    expect(team).toMatchObject({ success: true, toolCalls: 3 });
    expect(team.finalAnswer).toBe(
      '[offline model] Paris: 12°C, light rain; Tokyo: 21°C, clear; Berlin: 9°C, windy. Tokyo is the warmest, by 12 degrees.',
    );
  });

  it('a weather task with a plan follows the general rules: plan, call, report, finish', async () => {
    const result = await (await demo.agents.start({ task: 'What is the weather in Paris?', planning: {} })).result();
    expect(result).toMatchObject({ success: true, toolCalls: 1 });
    expect(result.plan?.tasks.map((t) => [t.description.slice(0, 21), t.status])).toEqual([
      ['Call get_weather for:', 'completed'],
      ['Answer the goal from ', 'completed'],
    ]);
    expect(result.finalAnswer).toContain('"temperature":12');
  });
});
