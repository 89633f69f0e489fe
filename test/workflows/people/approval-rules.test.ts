import { WorkflowFailedError, type Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import type { ApprovalPolicy } from '../../../src/domain/approval/approval';

const env = useTestEnv();
const alice = { id: 'alice', roles: [] };

/** The text of every marker's details in a run's history (a `patched()` call records its id there). */
async function markerTexts(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_MARKER_RECORDED)
    .flatMap((e) => Object.values(e.markerRecordedEventAttributes?.details ?? {}))
    .flatMap((p) => p.payloads ?? [])
    .map((p) => new TextDecoder().decode(p.data ?? new Uint8Array()))
    .join('\n');
}

describe.concurrent('approval rules in a run', () => {
  it('tools named constructor, toString and __proto__ run like any other tool (their names never reach Object.prototype)', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const names = ['constructor', 'toString', '__proto__'];
    const tools = names.map((name) => writeFileTool(ran, { name, approval: 'never' }));
    const { result } = await runScripted(env, {
      tools,
      input: { task: 'Write three files', approvalTimeoutMs: 60_000 },
      script: [
        {
          content: [
            say('Writing.'),
            ...names.map((name, i) => useTool(name, { path: `/tmp/${i}.txt`, text: name }, `toolu_${i}`)),
          ],
        },
        { content: [useTool('finish', { result: 'written' })] },
      ],
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'written' });
    expect(ran.map((a) => a['text']).sort()).toEqual([...names].sort());
  });

  it('a run override for a tool named constructor applies, and a relative path (which the old rule let through) waits for approval', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const { result, workflowId, observed } = await runScripted(env, {
      tools: [writeFileTool(ran, { name: 'constructor', approval: 'never' })],
      input: {
        task: 'Write a file',
        approvalTimeoutMs: 60_000,
        approvals: Object.fromEntries([
          ['constructor', { anyOf: [{ when: 'pathPrefix', field: 'path', prefixes: ['/etc'] }] }],
        ]),
      },
      script: [
        { content: [useTool('constructor', { path: 'etc/passwd', text: 'x' }, 'toolu_p1')] },
        { content: [useTool('finish', { result: 'done' })] },
      ],
      during: async ({ h, workflowId: id }) => {
        const [pending] = await waitForPending(h.agents, id);
        await h.agents.decide(id, { callId: 'toolu_p1', approved: false, by: alice, reason: 'not there' });
        return pending!;
      },
    });
    expect(observed).toMatchObject({
      callId: 'toolu_p1',
      toolName: 'constructor',
      reason: expect.stringContaining('is not an absolute path'),
    });
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'done' });
    // One code path: no version marker decides how the rule is read.
    expect(await markerTexts(env.client, workflowId)).toBe('');
  });

  it('SQL and matches rules run inside the workflow sandbox: a hidden write waits, a plain read and a hostile pattern pass at once', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const approval: ApprovalPolicy = {
      anyOf: [
        { when: 'sqlVerb', field: 'text', verbs: ['DELETE'] },
        { when: 'matches', field: 'path', pattern: '(a+)+$' },
      ],
    };
    const { result, observed } = await runScripted(env, {
      tools: [writeFileTool(ran, { name: 'run_sql', approval })],
      input: { task: 'Query', approvalTimeoutMs: 60_000 },
      script: [
        {
          content: [
            useTool('run_sql', { path: `${'a'.repeat(40)}!`, text: 'SELECT a FROM t WHERE b = 1' }, 'toolu_read'),
            useTool('run_sql', { path: 'q', text: 'SELECT 1 DROP TABLE t' }, 'toolu_write'),
          ],
        },
        { content: [useTool('finish', { result: 'done' })] },
      ],
      during: async ({ h, workflowId: id }) => {
        const pending = await waitForPending(h.agents, id);
        await h.agents.decide(id, { callId: 'toolu_write', approved: false, by: alice, reason: 'no writes' });
        return pending;
      },
    });
    expect(observed.map((p) => p.callId)).toEqual(['toolu_write']);
    expect(observed[0]?.reason).toContain('cannot be read by the PostgreSQL parser');
    expect(ran).toEqual([{ path: `${'a'.repeat(40)}!`, text: 'SELECT a FROM t WHERE b = 1' }]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'done' });
  });

  it('an approvals key __proto__ is refused: by the client, and by the workflow when the raw input reaches it', async () => {
    const raw = JSON.parse(
      '{"task": "t", "model": {"provider": "scripted", "model": "scripted"}, "approvals": {"__proto__": "always"}}',
    );
    const h = await createHarness(env, { tools: [], models: {} });
    await expect(h.agents.start(raw)).rejects.toThrow('"__proto__" cannot name a tool or agent in approvals');
    await h.worker.runUntil(async () => {
      const handle = await env.client.workflow.start('agentWorkflow', {
        taskQueue: h.taskQueue,
        workflowId: `proto-${Date.now()}`,
        args: [raw],
      });
      const failure = await handle.result().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect((failure as WorkflowFailedError).cause).toMatchObject({
        type: 'InvalidAgentInput',
        message: expect.stringContaining('"__proto__" cannot name a tool or agent in approvals'),
      });
    });
  });

  it('a run whose approval rule pattern RE2 cannot compile is refused at start, and no tool runs', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const h = await createHarness(env, { tools: [writeFileTool(ran)], models: {} });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'write',
        model: { provider: 'scripted', model: 'scripted' },
        approvals: { write_file: { anyOf: [{ when: 'matches', field: 'path', pattern: '(secret)\\1' }] } },
      });
      return handle.result();
    });
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'error',
      modelCalls: 0,
      error: expect.stringMatching(
        /^InvalidAgentInput: approvals\.write_file: the approval rule pattern .* for path is not RE2 syntax/,
      ),
    });
    expect(ran).toEqual([]);
  });
});
