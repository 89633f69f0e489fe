import { randomUUID } from 'node:crypto';
import type { Message, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { HttpAgent } from '@ag-ui/client';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_TOOLS } from '../../src/cli/setup/runtime';
import { createOfflineModel } from '../../src/offline/offline-model';
import type { RunEnding } from '../../src/domain/run/run-ending';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import { useTestEnv } from '../helpers/temporal-env';
import { startMcpFront, type McpFront } from './mcp-front';

const env = useTestEnv();
const DEV = { id: 'dev', roles: ['developer'], tenant: 'acme' };
const TASK = 'What is the weather in Paris?';

let s: A2aHarness;
let mcp: McpFront;

/**
 * The worker `run`, `serve --with-worker` and `mcp-server --with-worker` start without a key (the
 * CLI's offline model and tools), behind `serve` (/v1, A2A, AG-UI) and `mcp-server --http`. The
 * protocols start runs that allow questions and name no model; the CLI and /v1 do neither: the
 * answer must not depend on it.
 */
beforeAll(async () => {
  s = await startA2aHarness(env, { tools: BUILT_IN_TOOLS, model: createOfflineModel(), agents: [] });
  // `mcp-server --http` in front of the same worker.
  mcp = await startMcpFront(s.agents, 'offline-doors');
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

describe('the offline model gives the same task the same answer through every door', () => {
  it('the CLI, POST /v1/runs, A2A, AG-UI and MCP answer "What is the weather in Paris?" alike', async () => {
    // `run "…"`: the task, the configured model by name, the acting person (src/cli/commands/run-and-watch/run-task.ts runInput).
    const cli = await s.agents.start({
      task: TASK,
      model: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
      caller: DEV,
    });
    const viaCli = (await cli.result()).finalAnswer;

    const posted = await fetch(`${s.servers[0].url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.tokens.dev}`, 'content-type': 'application/json' },
      body: JSON.stringify({ task: TASK }),
    });
    expect(posted.status).toBe(201);
    const { runId } = (await posted.json()) as { runId: string };
    const viaApi = (await s.agents.result(runId)).finalAnswer;

    const a2a = await s.client('dev', 'agent');
    const message: Message = {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: 1,
      parts: [{ content: { $case: 'text', value: TASK }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const task = (await a2a.sendMessage({
      tenant: '',
      message,
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    const part = task.artifacts[0]?.parts[0]?.content;
    const viaA2a = part?.$case === 'text' ? part.value : `(no answer: ${JSON.stringify(task.status)})`;

    const agent = new HttpAgent({
      url: `${s.servers[0].url}/v1/ag-ui/agent`,
      headers: { authorization: `Bearer ${s.tokens.dev}` },
      threadId: randomUUID(),
    });
    agent.addMessage({ id: randomUUID(), role: 'user', content: TASK });
    const { result } = await agent.runAgent({});
    const viaAgUi = (result as RunEnding | undefined)?.answer;

    const called = await mcp.client.callTool({ name: 'agent', arguments: { task: TASK } }, CallToolResultSchema, {
      timeout: 60_000,
    });
    const viaMcp = (called.content as Array<{ text?: string }>)[0]?.text;

    expect(viaCli).toContain('light rain');
    expect({ viaApi, viaA2a, viaAgUi, viaMcp }).toEqual({
      viaApi: viaCli,
      viaA2a: viaCli,
      viaAgUi: viaCli,
      viaMcp: viaCli,
    });
  });
});
