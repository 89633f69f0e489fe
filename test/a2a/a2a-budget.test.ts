import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { routedModel } from '../server/server-harness';
import { startA2aHarness, type A2aHarness } from './a2a-harness';

/**
 * An agent whose definition carries `onBudget: 'ask'` and a token budget: a run A2A starts (the
 * catalogue names only the agent) pauses at it, the task is input-required, and a reply raises it.
 */
const env = useTestEnv();
const model = routedModel();
const reconciler = defineAgent({
  id: 'reconciler',
  description: 'Reconciles invoices.',
  version: '1.0.0',
  systemPrompt: 'You reconcile invoices.',
  tools: ['lookup'],
  budget: { tokenBudget: 50_000, onBudget: 'ask', budgetRaiserRoles: ['developer'] },
});
let s: A2aHarness;

beforeAll(async () => {
  s = await startA2aHarness(env, { tools: testTools().tools, model, agents: [reconciler] });
});
afterAll(async () => s?.close());

const STATE = { completed: 3, inputRequired: 6 } as const;

function message(content: Message['parts'][number]['content'], extra: Partial<Message> = {}): Message {
  return {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    contextId: '',
    taskId: '',
    role: 1,
    parts: [{ content, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}
const text = (value: string) => ({ $case: 'text' as const, value });
const send = (msg: Message): SendMessageRequest => ({
  tenant: '',
  message: msg,
  configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
  metadata: undefined,
});

describe('A2A: the agent’s budget', () => {
  it('pauses a run A2A started at the agent’s token budget (input-required); a reply with tokens raises it to completion', async () => {
    // The first call reports 60,000 tokens: past the agent's 50,000, so the second waits for a raise.
    const scripted = model.script('a2a-budget', [
      { content: [say('Looking up a.'), useTool('lookup', { key: 'a' })], usage: { inputTokens: 60_000 } },
      { content: [useTool('finish', { result: 'a is 10' })] },
    ]);
    const client = await s.client('dev', 'reconciler');
    const paused = (await client.sendMessage(send(message(text('a2a-budget: find a'))))) as Task;
    expect(paused.status?.state).toBe(STATE.inputRequired);
    const parts = paused.status!.message!.parts;
    expect(parts[0]!.content).toMatchObject({ $case: 'text', value: expect.stringContaining('Paused at its budget') });
    expect(parts[1]!.content).toMatchObject({
      $case: 'data',
      value: { kind: 'budget', reason: 'token_budget', budgets: { tokenBudget: 50_000 }, raiserRoles: ['developer'] },
    });
    expect(scripted.calls).toHaveLength(1);

    const raise = { $case: 'data' as const, value: { tokens: 50_000, note: 'worth it' } };
    const done = (await client.sendMessage(send(message(raise, { taskId: paused.id })))) as Task;
    expect(done.status?.state).toBe(STATE.completed);
    const result = await s.agents.getHandle(paused.id).result();
    expect(result.terminationReason).toBe('success');
    expect(result.finalAnswer).toBe('a is 10');
    expect(JSON.stringify(result.chain.steps)).toContain(
      'Budget raised by dev (developer): +50000 tokens (now 100000 tokens',
    );
    expect(scripted.calls).toHaveLength(2);
  });
});
