import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent, type Interrupt } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { readThread, threadWorkflowId } from '../../src/client/threads/thread-client';
import type { RunEnding } from '../../src/domain/run/run-ending';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { threadModels } from '../threads/thread-models';
import { startAgUiServers, streaming, type AgUiServers } from './ag-ui-harness';

/**
 * An agent whose definition carries `onBudget: 'ask'` and a token budget, offered over AG-UI (the
 * catalogue names only the agent): its turn's stream ends with the budget interrupt, and a resume
 * with a raise, from a new client on the other server, finishes it.
 */
const env = useTestEnv();
const models = threadModels();
const reconciler = defineAgent({
  id: 'reconciler',
  description: 'Reconciles invoices.',
  version: '1.0.0',
  systemPrompt: 'You reconcile invoices.',
  tools: ['lookup'],
  budget: { tokenBudget: 50_000, onBudget: 'ask' },
});
let s: AgUiServers;

beforeAll(async () => {
  s = await startAgUiServers(env, {
    model: streaming(models),
    tools: testTools().tools,
    agents: [reconciler],
    catalog: createAgentCatalog([reconciler]),
  });
});
afterAll(async () => s?.close());

const DEV = { id: 'dev', roles: ['developer'], tenant: 'acme' };
const frontEnd = (server: 'a' | 'b', threadId: string) =>
  new HttpAgent({
    url: `${s[server].url}/v1/ag-ui/reconciler`,
    headers: { Authorization: `Bearer ${s.tokens.dev}` },
    threadId,
  });

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
  const events: BaseEvent[] = [];
  const { result } = await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  return { events, answer: (result as RunEnding | undefined)?.answer };
}

describe('AG-UI: the agent’s budget', () => {
  it('ends the stream with a budget interrupt at the agent’s token budget; a resume raising it finishes the run', async () => {
    const threadId = `t-${randomUUID()}`;
    const k = `agui-budget-${randomUUID().slice(0, 8)}`;
    // The first call reports 60,000 tokens: past the agent's 50,000, so the second waits for a raise.
    const scripted = models.script(k, [
      { content: [say('Looking up a.'), useTool('lookup', { key: 'a' })], usage: { inputTokens: 60_000 } },
      { content: [useTool('finish', { result: 'a is 10' })] },
    ]);
    const one = frontEnd('a', threadId);
    one.addMessage({ id: randomUUID(), role: 'user', content: `${k}: find a` });
    const got1 = await run(one);
    const finished = got1.events.at(-1) as { type: string; outcome: { type: string; interrupts: Interrupt[] } };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome.type).toBe('interrupt');
    const [interrupt] = finished.outcome.interrupts;
    expect(interrupt).toMatchObject({
      reason: 'budget',
      metadata: { thoughtline: { budgetPause: { reason: 'token_budget', budgets: { tokenBudget: 50_000 } } } },
    });
    expect(scripted.calls).toHaveLength(1);

    const got2 = await run(frontEnd('b', threadId), {
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { tokens: 50_000, note: 'worth it' } }],
    });
    expect(got2.answer).toBe('a is 10');
    expect(scripted.calls).toHaveLength(2);
    const view = await readThread(s.agents, threadWorkflowId(DEV, threadId));
    expect(view?.turns[0]).toMatchObject({ status: 'completed', answer: 'a is 10' });
  });
});
