import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiContext } from '../../src/server/api-route';
import { a2aWorkflowId } from '../../src/server/a2a/tasks/start-run';
import { TASK_STATE } from '../../src/server/a2a/tasks/task-of-snapshot';
import type { Identity } from '../../src/server/auth/identity';
import { GENERIC_AGENT } from '../../src/server/catalog/agent-catalog';
import { protocolRunInput } from '../../src/server/protocols/protocol-run-input';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import {
  ENDING_ANSWER,
  ENDING_ERROR,
  ENDING_GIVE_UP,
  ENDINGS,
  endingInput,
  endingModel,
  endingTask,
  type Ending,
} from '../helpers/run-endings';
import { startEndingRuns } from '../helpers/start-ending-runs';
import { useTestEnv } from '../helpers/temporal-env';
import { startMcpFront, type McpFront } from './mcp-front';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();
const DEV: Identity = { id: 'dev', roles: ['developer'], tenant: 'acme', via: 'token' };

let s: A2aHarness;
let ctx: ApiContext;
let mcp: McpFront;
let ids: Record<Ending, string>;

/**
 * The seven runs every protocol door reads. A protocol starts a run with its catalogue agent's
 * defaults, which cannot set the limits an ending needs (a stall threshold, one iteration, a
 * budget); so each run starts with the input A2A's start path builds (protocolRunInput, the
 * caller from the identity) plus its ending's task and limits, under the id A2A gives a message's
 * task: A2A, MCP and AG-UI then read these seven exactly as they read runs they started.
 */
beforeAll(async () => {
  const model = endingModel();
  s = await startA2aHarness(env, { tools: testTools().tools, model, agents: [] });
  mcp = await startMcpFront(s.agents, 'endings');
  ctx = mcp.ctx;
  const agent = ctx.catalog.get(GENERIC_AGENT)!;
  const batch = randomUUID();
  ids = await startEndingRuns(s.agents, model, async (ending) => {
    const input = protocolRunInput(ctx, DEV, agent, endingTask(ending), { allowQuestions: true });
    const workflowId = a2aWorkflowId(DEV, agent.name, `endings-${batch}-${ending}`);
    await s.agents.start({ ...input, ...endingInput(ending), requireThought: false }, { workflowId });
    return workflowId;
  });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

const text = (parts: Task['artifacts'][number]['parts'] | undefined): string =>
  parts?.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('') ?? '';

describe('every protocol door says how each of the seven runs ended (runEnding)', () => {
  it('A2A GetTask: completed with the answer (partial at a limit), canceled, or failed saying why', async () => {
    const client = await s.client('dev', GENERIC_AGENT);
    const tasks = Object.fromEntries(
      await Promise.all(ENDINGS.map(async (e) => [e, await client.getTask({ tenant: '', id: ids[e] })] as const)),
    ) as Record<Ending, Task>;
    for (const e of ENDINGS) expect(tasks[e].metadata?.thoughtline.ending.label, e).toBe(e);

    expect(tasks.success.status?.state).toBe(TASK_STATE.completed);
    expect(text(tasks.success.artifacts[0]?.parts)).toBe(ENDING_ANSWER);
    expect(tasks.success.metadata?.thoughtline).toMatchObject({
      terminationReason: 'success',
      ending: { state: 'completed', summary: 'success', grounding: 'grounded' },
    });

    expect(tasks.failure.status?.state).toBe(TASK_STATE.failed);
    expect(text(tasks.failure.status?.message?.parts)).toBe(`failure: ${ENDING_GIVE_UP}`);
    // A failed run gives no answer artifact; its chain, which says how it got there, is still one.
    expect(tasks.failure.artifacts.map((a) => a.artifactId)).toEqual(['reasoning-chain']);
    expect(tasks.error.status?.state).toBe(TASK_STATE.failed);
    expect(text(tasks.error.status?.message?.parts)).toContain(`error: `);
    expect(text(tasks.error.status?.message?.parts)).toContain(ENDING_ERROR);
    expect(tasks.error.metadata?.thoughtline.ending.error).toContain(ENDING_ERROR);

    expect(tasks.cancelled.status?.state).toBe(TASK_STATE.canceled);
    expect(text(tasks.cancelled.status?.message?.parts)).toMatch(/^cancelled/);

    for (const limit of ['stalled', 'max_iterations', 'cost_budget'] as const) {
      const task = tasks[limit];
      expect(task.status?.state, limit).toBe(TASK_STATE.completed);
      expect(text(task.status?.message?.parts), limit).toMatch(new RegExp(`^${limit}`));
      expect(task.metadata?.thoughtline.ending, limit).toMatchObject({ state: 'completed', tone: 'limit' });
      // The partial answer is the artifact, titled as every view titles it.
      expect(task.artifacts[0], limit).toMatchObject({
        artifactId: 'partial-answer',
        name: `Partial answer (${limit})`,
      });
    }
    expect(text(tasks.max_iterations.artifacts[0]?.parts)).toBe('So far: alpha is 50.');
  });

  it('MCP get_run: the answer, or isError with the summary and the error; the reason in the text and the structured content', async () => {
    const read = async (e: Ending) => {
      const result = await mcp.client.callTool({ name: 'get_run', arguments: { runId: ids[e] } }, CallToolResultSchema);
      const first = (result.content as Array<{ type: string; text?: string }>)[0];
      return { result, text: first?.type === 'text' ? (first.text ?? '') : '' };
    };
    const got = Object.fromEntries(await Promise.all(ENDINGS.map(async (e) => [e, await read(e)] as const)));
    for (const e of ENDINGS)
      expect(got[e]!.result.structuredContent, e).toMatchObject({ runId: ids[e], terminationReason: e });

    expect(got.success!.text).toBe(ENDING_ANSWER);
    expect(got.success!.result.isError).toBeUndefined();
    for (const failed of ['failure', 'error'] as const) {
      expect(got[failed]!.result.isError, failed).toBe(true);
      expect(got[failed]!.result.structuredContent, failed).toMatchObject({ state: 'failed' });
    }
    expect(got.failure!.text).toContain(`ended failure: ${ENDING_GIVE_UP}`);
    expect(got.error!.text).toContain(ENDING_ERROR);
    expect(got.cancelled!.result.isError).toBeUndefined();
    expect(got.cancelled!.text).toContain('ended cancelled');
    for (const limit of ['stalled', 'max_iterations', 'cost_budget'] as const) {
      expect(got[limit]!.result.isError, limit).toBeUndefined();
      expect(got[limit]!.text, limit).toContain(`ended ${limit}`);
      expect(got[limit]!.result.structuredContent, limit).toMatchObject({ ending: { tone: 'limit' } });
    }
  });

  it("AG-UI's per-run stream, read by HttpAgent: RUN_FINISHED with the ending as its result, RUN_ERROR with the summary", async () => {
    const last = async (e: Ending): Promise<BaseEvent & Record<string, any>> => {
      const url = `${s.servers[0].url}/v1/runs/${ids[e]}/ag-ui`;
      // HttpAgent reads and verifies the stream; its request goes to the run's GET route.
      const agent = new HttpAgent({
        url,
        headers: { authorization: `Bearer ${s.tokens.dev}` },
        threadId: ids[e],
        fetch: (_url, init) => fetch(url, { headers: init.headers, signal: init.signal ?? null }),
      });
      const events: BaseEvent[] = [];
      await agent
        .runAgent({ runId: ids[e] }, { onEvent: ({ event }) => void events.push(event) })
        .catch(() => undefined);
      for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
      return events.at(-1) as BaseEvent & Record<string, any>;
    };
    const got = Object.fromEntries(await Promise.all(ENDINGS.map(async (e) => [e, await last(e)] as const)));

    expect(got.success).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success' },
      result: { state: 'completed', terminationReason: 'success', answer: ENDING_ANSWER },
    });
    expect(got.failure).toMatchObject({ type: 'RUN_ERROR', code: 'failure', message: `failure: ${ENDING_GIVE_UP}` });
    expect(got.error).toMatchObject({ type: 'RUN_ERROR', code: 'error' });
    expect(got.error!.message).toContain(ENDING_ERROR);
    expect(got.cancelled).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'cancelled' },
      result: { state: 'cancelled', terminationReason: 'cancelled' },
    });
    for (const limit of ['stalled', 'max_iterations', 'cost_budget'] as const)
      expect(got[limit], limit).toMatchObject({
        type: 'RUN_FINISHED',
        outcome: { type: 'success' },
        result: { state: 'completed', terminationReason: limit, tone: 'limit' },
      });
  });
});
