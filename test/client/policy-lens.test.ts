import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { resolveViewLens } from '../../src/domain/visibility/view-lens';
import { VisibilityPolicy } from '../../src/domain/visibility/visibility-policy';
import { defineTool } from '../../src/tools/define-tool';
import { chainQuery, statusQuery } from '../../src/workflows/messages';
import { ScriptBook, sharedWorker, waitFor } from '../helpers/people-helpers';
import { scriptedInput } from '../helpers/scripted-input';

const ACCOUNT = 'ACCT-55667788';
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up an account',
  input: z.object({ name: z.string() }),
  effects: 'none',
  approval: 'never',
  execute: () => ({ account: ACCOUNT, plan: 'gold' }),
});

const charge = defineTool({
  name: 'charge',
  description: 'Charges an account',
  input: z.object({ account: z.string(), amount: z.number() }),
  approval: 'always',
  execute: ({ amount }) => ({ charged: amount }),
});

const book = new ScriptBook();
const shared = sharedWorker(() => [lookup, charge], book.provider);
const THOUGHT = 'Let me look the customer up first.';

/** End users see no thinking; acme's account numbers are masked below the auditor. */
const policy = VisibilityPolicy.parse({
  version: 1,
  roles: { end_user: { steps: { thinking: 'hidden' } } },
  tenants: { acme: { sensitiveFields: { lookup: ['account'] } } },
});

async function finishedRun(task: string) {
  book.script(task, [
    { content: [say(THOUGHT), useTool('lookup', { name: 'Ann' })] },
    { content: [useTool('finish', { result: 'Ann is on gold.' })] },
  ]);
  const handle = await shared.h.agents.start(scriptedInput(task, { caller: { id: 'ann', roles: [], tenant: 'acme' } }));
  await handle.result();
  return handle;
}

describe('the chain and status queries with a lens', () => {
  it('hide thinking for end users by the policy, and show it without the lens', async () => {
    const handle = await finishedRun('policy: the chain query with a lens');
    const lens = resolveViewLens(policy, { view: 'end_user', agent: 'agent', tenant: 'acme' });
    const narrowed = await handle.query(chainQuery, 'end_user', undefined, lens);
    expect(narrowed.steps.filter((s) => s.type === 'thinking')).toEqual([]);
    expect(narrowed.view?.narrowed).toBeGreaterThan(0);
    expect(JSON.stringify(narrowed)).not.toContain(ACCOUNT);
    const plain = await handle.query(chainQuery, 'end_user');
    expect(plain.steps.some((s) => s.type === 'thinking' && s.thought.includes(THOUGHT))).toBe(true);
    expect(JSON.stringify(plain)).toContain(ACCOUNT);
    expect(await handle.query(statusQuery, 'end_user', lens)).toMatchObject({ pendingApprovals: [] });
  });

  it('fail the query, not the run, with a lens that does not parse', async () => {
    const handle = await finishedRun('policy: an unreadable lens');
    const broken = { view: 'end_user', steps: { thinking: 'invisible' } };
    await expect(handle.query(chainQuery, 'end_user', undefined, broken as never)).rejects.toThrow(
      /view lens does not parse.*steps\.thinking/,
    );
    await expect(handle.query(statusQuery, 'end_user', 'nonsense' as never)).rejects.toThrow(
      /view lens does not parse/,
    );
    expect((await handle.query(chainQuery, 'end_user')).steps.length).toBeGreaterThan(0);
  });
});

describe('AgentClient visibilityPolicy', () => {
  it("narrows every view it reads by the policy for the run's agent and tenant", async () => {
    const handle = await finishedRun('policy: the client with a policy');
    const client = new AgentClient({
      client: shared.env.client,
      taskQueue: shared.h.taskQueue,
      visibilityPolicy: { policy, path: 'inline' },
    });
    const endUser = await client.chain(handle.workflowId, 'end_user');
    expect(endUser.steps.some((s) => s.type === 'thinking')).toBe(false);
    expect(JSON.stringify(endUser)).not.toContain(ACCOUNT);
    const developer = await client.chain(handle.workflowId, 'developer');
    expect(developer.steps.some((s) => s.type === 'thinking' && s.thought.includes(THOUGHT))).toBe(true);
    expect(JSON.stringify(developer)).not.toContain(ACCOUNT);
    const auditor = await client.chain(handle.workflowId, 'auditor');
    expect(JSON.stringify(auditor)).toContain(ACCOUNT);
    // Without the policy, the same client shows the end user the thought.
    const plain = await shared.h.agents.chain(handle.workflowId, 'end_user');
    expect(plain.steps.some((s) => s.type === 'thinking')).toBe(true);
  });

  it('narrows a live run by its agent and tenant (read from its search attributes), in chain and status', async () => {
    const task = 'policy: a live run read through the client';
    book.script(task, [
      { content: [say(THOUGHT), useTool('charge', { account: ACCOUNT, amount: 5 }, 'toolu_charge')] },
      { content: [useTool('finish', { result: 'Charged.' })] },
    ]);
    const handle = await shared.h.agents.start(
      scriptedInput(task, { caller: { id: 'ann', roles: [], tenant: 'acme' }, approvalTimeoutMs: 60_000 }),
    );
    const id = handle.workflowId;
    await waitFor(
      'the charge to wait for approval',
      async () => (await shared.h.agents.pendingApprovals(id)).length > 0,
    );
    const agentPolicy = VisibilityPolicy.parse({
      version: 1,
      roles: { end_user: { steps: { thinking: 'hidden' } } },
      agents: { agent: { tools: { charge: { call: 'summary' } } } },
      tenants: { acme: { sensitiveFields: { charge: ['account'] } } },
    });
    const client = new AgentClient({
      client: shared.env.client,
      taskQueue: shared.h.taskQueue,
      visibilityPolicy: { policy: agentPolicy, path: 'inline' },
    });
    const chain = await client.chain(id, 'end_user');
    expect(chain.agentName).toBe('agent');
    expect(chain.steps.some((s) => s.type === 'thinking' && s.thought.includes(THOUGHT))).toBe(false);
    const call = chain.steps.find((s) => s.type === 'tool_call' && s.toolCall.toolName === 'charge');
    expect(call).toMatchObject({ toolCall: { arguments: {} } });
    const status = await client.status(id, 'developer');
    expect(status.pendingApprovals[0]?.arguments).toEqual({});
    expect(JSON.stringify(status)).not.toContain(ACCOUNT);
    // The same run without the policy: the developer sees the call's arguments.
    expect((await shared.h.agents.status(id, 'developer')).pendingApprovals[0]?.arguments).toMatchObject({
      account: ACCOUNT,
    });
    await shared.h.agents.decide(id, { callId: 'toolu_charge', approved: true, by: { id: 'ops', roles: [] } });
    await handle.result();
  });
});
