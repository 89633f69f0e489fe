import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { UpdateRefusedError, sendUpdate } from '../../../src/client/errors/update-refused-error';
import { StatusAttribute, argumentsHash, type ApprovalDecision, type ReasoningStep } from '../../../src/domain';
import { approveToolCallUpdate } from '../../../src/workflows/messages';
import {
  approvalUpdatesInHistory,
  holdAfter,
  lastToolResults,
  toolActivities,
  waitForPending,
  writeFileTool,
} from '../../helpers/approval-helpers';
import { resultStep } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';
import { as, keysOf } from '../../helpers/decision-signing';
import { inMemorySigner } from '../../../src/server/signing/keyring-signer';

const env = useTestEnv();

const alice = { id: 'alice', roles: ['ops'] };
const bob = { id: 'bob', roles: [] };

/** The runs' input unless a test says otherwise: `during` decides their calls, within a minute. */
const input = { task: 'Do the task', approvalTimeoutMs: 60_000 };

const stepIndex = (steps: readonly ReasoningStep[], test: (s: ReasoningStep) => boolean): number =>
  steps.findIndex(test);

describe.concurrent('tool approval', () => {
  it('approve: status shows the call, the run is searchable as waiting_approval, and the tool runs once with the shown arguments', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const args = { path: '/tmp/report.txt', text: 'hello' };
    const model = createScriptedModel([
      { content: [say('Saving the report.'), useTool('write_file', args, 'toolu_w1')] },
      { content: [useTool('finish', { result: 'saved' })] },
    ]);

    const { workflowId, observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(ran)],
      input,
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        const status = await h.agents.status(workflowId);
        const description = await h.agents.getHandle(workflowId).describe();
        const ranBefore = [...ran];
        const decided = await h.agents.decide(workflowId, { callId: 'toolu_w1', approved: true, by: alice });
        return {
          pending: pending!,
          status,
          searchStatus: description.typedSearchAttributes.get(StatusAttribute),
          ranBefore,
          decided,
        };
      },
    });
    model.verify();

    // What the approver was shown.
    const { pending, status } = observed;
    expect(pending).toMatchObject({
      callId: 'toolu_w1',
      toolName: 'write_file',
      arguments: args,
      reason: 'always requires approval',
      status: 'pending',
      approverRoles: [],
    });
    expect(pending.argumentsHash).toBe(argumentsHash(args));
    expect(Date.parse(pending.expiresAt) - Date.parse(pending.requestedAt)).toBe(60_000);
    expect(status.waitingFor).toBe('approval of write_file (toolu_w1)');
    expect(observed.ranBefore).toEqual([]);
    expect(observed.decided).toMatchObject({ callId: 'toolu_w1', status: 'approved', decidedBy: alice });

    // The tool ran exactly once, with exactly what was shown and hashed.
    expect(ran).toEqual([args]);
    expect(await toolActivities(env.client, workflowId)).toEqual(['write_file']);
    expect(result).toMatchObject({ success: true, finalAnswer: 'saved', toolCalls: 1 });
    const [record] = result.chain.approvals ?? [];
    expect(result.chain.approvals).toHaveLength(1);
    expect(record).toMatchObject({
      callId: 'toolu_w1',
      status: 'approved',
      decidedBy: alice,
      arguments: args,
      argumentsHash: pending.argumentsHash,
    });
    expect(Date.parse(record!.decidedAt!)).toBeGreaterThanOrEqual(Date.parse(record!.requestedAt));
    expect(record!.note).toBeUndefined();

    // The chain: call, waiting note, the person's decision, then the result.
    const steps = result.chain.steps;
    const call = stepIndex(steps, (s) => s.type === 'tool_call' && s.toolCall.correlationId === 'toolu_w1');
    const decision = stepIndex(steps, (s) => s.fromPerson?.kind === 'approval');
    const outcome = stepIndex(steps, (s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_w1');
    expect(steps[decision]).toMatchObject({ type: 'thinking', fromPerson: { kind: 'approval', by: 'alice' } });
    // Roles sent unsigned are shown as the person's claim, never as held.
    expect(steps[decision]!.type === 'thinking' && steps[decision]!.thought).toBe(
      'Approved by alice (claimed: ops, not verified): write_file (call toolu_w1)',
    );
    expect(call).toBeGreaterThanOrEqual(0);
    expect(call).toBeLessThan(decision);
    expect(decision).toBeLessThan(outcome);
    expect(resultStep(steps, 'toolu_w1')?.toolResult.success).toBe(true);

    // What the model read next.
    expect(lastToolResults(model.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'toolu_w1', content: 'wrote 5 characters to /tmp/report.txt', isError: false },
    ]);

    // History: the one decision, accepted and completed.
    const updates = await approvalUpdatesInHistory(env.client, workflowId);
    expect(updates.accepted).toEqual([
      { callId: 'toolu_w1', approved: true, by: alice, argumentsHash: pending.argumentsHash },
    ]);
    expect(updates.completed).toBe(1);

    // Observers filter on this while the run waits (upserted with the approval request).
    expect(observed.searchStatus).toBe('waiting_approval');
  });

  it('reject with a reason: the tool never runs, the model reads the reason as an error, and the run finishes; a reason is required', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      { content: [useTool('write_file', { path: '/etc/hosts', text: 'x' }, 'toolu_r1')] },
      { content: [say('The write was rejected; reporting instead.'), useTool('finish', { result: 'not written' })] },
    ]);

    const { workflowId, observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(ran)],
      input,
      during: async ({ h, workflowId }) => {
        await waitForPending(h.agents, workflowId);
        // One at a time, as a person at a terminal would send them.
        const refusals = [
          await h.agents.decide(workflowId, { callId: 'toolu_r1', approved: false, by: bob }).catch((e: unknown) => e),
          await h.agents
            .decide(workflowId, { callId: 'toolu_r1', approved: false, by: bob, reason: '   ' })
            .catch((e: unknown) => e),
        ];
        const stillPending = await h.agents.pendingApprovals(workflowId);
        await h.agents.decide(workflowId, {
          callId: 'toolu_r1',
          approved: false,
          by: bob,
          reason: 'system files are off limits',
        });
        return { refusals, stillPending };
      },
    });
    model.verify();

    for (const refusal of observed.refusals) {
      expect(refusal).toBeInstanceOf(UpdateRefusedError);
      expect((refusal as Error).message).toBe('A rejection needs a reason; the model reads it.');
    }
    expect(observed.stillPending.map((r) => r.callId)).toEqual(['toolu_r1']);

    expect(ran).toEqual([]);
    expect(await toolActivities(env.client, workflowId)).toEqual([]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'not written', toolCalls: 0 });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({
        callId: 'toolu_r1',
        status: 'rejected',
        note: 'system files are off limits',
        decidedBy: bob,
      }),
    ]);

    const expected = 'Not run: bob rejected this call: system files are off limits.';
    expect(lastToolResults(model.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'toolu_r1', content: expected, isError: true },
    ]);
    expect(resultStep(result.chain.steps, 'toolu_r1')?.toolResult).toMatchObject({ success: false, error: expected });
    expect(result.chain.steps.find((s) => s.fromPerson?.kind === 'approval')).toMatchObject({
      thought: 'Rejected by bob: write_file (call toolu_r1): system files are off limits',
    });

    const updates = await approvalUpdatesInHistory(env.client, workflowId);
    expect(updates.accepted).toEqual([
      expect.objectContaining({ callId: 'toolu_r1', approved: false, reason: 'system files are off limits' }),
    ]);
    expect(updates.completed).toBe(1);
  });

  it('timeout: an undecided call becomes timed_out, the model reads an error, and the run goes on', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      { content: [useTool('write_file', { path: '/tmp/t' }, 'toolu_t1')] },
      { content: [useTool('finish', { result: 'gave up on the write' })] },
    ]);

    const { workflowId, observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(ran)],
      input: { ...input, approvalTimeoutMs: 1_500 },
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        return pending!;
      },
    });
    model.verify();

    expect(Date.parse(observed.expiresAt) - Date.parse(observed.requestedAt)).toBe(1_500);
    expect(ran).toEqual([]);
    expect(await toolActivities(env.client, workflowId)).toEqual([]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'gave up on the write', toolCalls: 0 });
    const [record] = result.chain.approvals ?? [];
    expect(record).toMatchObject({ callId: 'toolu_t1', status: 'timed_out' });
    expect(record!.decidedBy).toBeUndefined();
    expect(Date.parse(record!.decidedAt!)).toBeGreaterThanOrEqual(Date.parse(record!.expiresAt));

    const [observation] = lastToolResults(model.calls[1]!.messages);
    expect(observation).toMatchObject({ toolUseId: 'toolu_t1', isError: true });
    expect(observation!.content).toMatch(/^Not run: nobody approved this call within /);
    expect(resultStep(result.chain.steps, 'toolu_t1')?.toolResult).toMatchObject({
      success: false,
      error: observation!.content,
    });
    expect(await approvalUpdatesInHistory(env.client, workflowId)).toEqual({
      accepted: [],
      completed: 0,
      otherUpdates: 0,
    });

    // The model is told how long the run waited; "within 0 minutes" would be wrong for 1.5 s.
    expect(observation!.content).not.toContain('within 0 minutes');
  });

  it('refuses a wrong call id, an unauthorised approver, a mismatched arguments hash and a second decision, leaving no trace in history', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const args = { path: '/srv/app.yaml', text: 'replicas: 3' };
    const scripted = createScriptedModel([
      { content: [useTool('deploy_config', args, 'toolu_d1')] },
      { content: [useTool('finish', { result: 'deployed' })] },
    ]);
    const held = holdAfter(scripted, 1);
    const carol = { id: 'carol', roles: ['ops'] };
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: unknown) => (e instanceof UpdateRefusedError ? e.message : `unexpected ${String(e)}`),
      );

    // Roles count when a key the run holds signs them (as serve does for the people it authenticates).
    const signer = inMemorySigner();
    const { workflowId, observed, result } = await runScripted(env, {
      model: held.model,
      tools: [writeFileTool(ran, { name: 'deploy_config', approverRoles: ['ops'] })],
      input: { ...input, ...keysOf(signer) },
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        const handle = h.agents.getHandle(workflowId);
        const messages = {
          wrongId: await refused(h.agents.decide(workflowId, { callId: 'toolu_nope', approved: true, by: carol })),
          wrongRole: await refused(
            h.agents.decide(
              workflowId,
              { callId: 'toolu_d1', approved: true, by: 'dave' },
              as(signer, 'dave', ['dev']),
            ),
          ),
          noRole: await refused(
            h.agents.decide(workflowId, { callId: 'toolu_d1', approved: true, by: 'eve' }, as(signer, 'eve')),
          ),
          claimed: await refused(h.agents.decide(workflowId, { callId: 'toolu_d1', approved: true, by: carol })),
          badHash: await refused(
            sendUpdate(() =>
              handle.executeUpdate(approveToolCallUpdate, {
                args: [
                  signer.sign(
                    'approval',
                    workflowId,
                    { callId: 'toolu_d1', approved: true, by: carol, argumentsHash: 'sha256:bad' },
                    { ...carol, via: 'in-process' },
                  ),
                ],
              }),
            ),
          ),
        };
        const afterRefusals = { pending: await h.agents.pendingApprovals(workflowId), ran: [...ran] };
        const accepted = await h.agents.decide(
          workflowId,
          { callId: 'toolu_d1', approved: true, by: carol },
          as(signer, 'carol', ['ops']),
        );
        // The run is held at its next model call, so the record is live when the second decision comes.
        const again = await refused(
          h.agents.decide(
            workflowId,
            { callId: 'toolu_d1', approved: false, by: 'frank', reason: 'changed my mind' },
            as(signer, 'frank', ['ops']),
          ),
        );
        held.release();
        return { pending: pending!, messages, afterRefusals, accepted, again };
      },
    });
    scripted.verify();

    const { messages, pending } = observed;
    expect(messages.wrongId).toBe('No tool call "toolu_nope" awaits approval in this run. Pending: toolu_d1.');
    expect(messages.wrongRole).toBe(
      'dave may not decide on deploy_config: it needs one of the roles ops; they have dev.',
    );
    expect(messages.noRole).toBe('eve may not decide on deploy_config: it needs one of the roles ops; they have none.');
    expect(messages.claimed).toMatch(
      /^carol may not decide on deploy_config: it needs one of the roles ops, verified by a signature .*; carol claimed ops, not verified\.$/,
    );
    expect(messages.badHash).toBe(
      `The arguments hash sha256:bad does not match the call's arguments (${pending.argumentsHash}); fetch the pending call again and review what will run.`,
    );
    expect(observed.afterRefusals).toEqual({ pending: [pending], ran: [] });
    expect(observed.accepted).toMatchObject({ status: 'approved', decidedBy: carol });
    expect(observed.again).toBe(
      `Tool call "toolu_d1" (deploy_config) was already approved by carol at ${observed.accepted.decidedAt}.`,
    );

    expect(pending.approverRoles).toEqual(['ops']);
    expect(ran).toEqual([args]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'deployed' });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'toolu_d1', status: 'approved', decidedBy: carol }),
    ]);
    expect(result.chain.steps.filter((s) => s.fromPerson?.kind === 'approval')).toHaveLength(1);

    // Only the accepted decision reached history.
    const updates = await approvalUpdatesInHistory(env.client, workflowId);
    expect(updates).toEqual({
      accepted: [
        expect.objectContaining({
          callId: 'toolu_d1',
          approved: true,
          by: carol,
          argumentsHash: pending.argumentsHash,
        }),
      ],
      completed: 1,
      otherUpdates: 0,
    });
  });

  it('schema-checks a raw decision: a non-boolean `approved` is refused, and a person sent without `roles` has none', async ({
    expect,
  }) => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      {
        content: [
          useTool('write_file', { path: '/tmp/m1' }, 'toolu_m1'),
          useTool('write_file', { path: '/tmp/m2' }, 'toolu_m2'),
        ],
      },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, { tools: [writeFileTool(ran)], models: { scripted: model } });

    const observed = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Write two files',
        model: SCRIPTED_MODEL,
        approvalTimeoutMs: 60_000,
      });
      const [m1, m2] = await waitForPending(h.agents, handle.workflowId, 2);
      // As another SDK or `temporal workflow update` could send it: nothing typed on the way.
      const sendRaw = (decision: Record<string, unknown>) =>
        env.client.connection
          .withDeadline(Date.now() + 5_000, () =>
            sendUpdate(() =>
              handle.executeUpdate(approveToolCallUpdate, { args: [decision as unknown as ApprovalDecision] }),
            ),
          )
          .then(
            (record) => ({ landed: true as const, record }),
            (error: unknown) => ({ landed: false as const, error }),
          );
      const notBoolean = await sendRaw({
        callId: 'toolu_m1',
        approved: 'no',
        by: { id: 'mallory', roles: [] },
        argumentsHash: m1!.argumentsHash,
        reason: 'looks wrong',
      });
      const ranAfterNotBoolean = [...ran];
      const noRoles = await sendRaw({
        callId: 'toolu_m2',
        approved: true,
        by: { id: 'mallory' },
        argumentsHash: m2!.argumentsHash,
      });
      if (!noRoles.landed) {
        // The run cannot go on; end it so the worker stops.
        await handle.terminate('test: the decision without roles did not land');
        return { notBoolean, ranAfterNotBoolean, noRoles, workflowId: handle.workflowId };
      }
      await h.agents
        .decide(handle.workflowId, {
          callId: 'toolu_m1',
          approved: false,
          by: bob,
          reason: 'malformed decisions do not count',
        })
        .catch(() => undefined);
      return { notBoolean, ranAfterNotBoolean, noRoles, workflowId: handle.workflowId, result: await handle.result() };
    });

    // Soft: each is its own fact, and all of them should show when one fails.
    expect.soft(observed.notBoolean.landed ? observed.notBoolean.record : undefined).toBeUndefined();
    expect.soft(!observed.notBoolean.landed && observed.notBoolean.error).toBeInstanceOf(UpdateRefusedError);
    expect.soft(!observed.notBoolean.landed && (observed.notBoolean.error as Error).message).toMatch(/approved/);
    expect.soft(observed.ranAfterNotBoolean).toEqual([]);

    expect
      .soft(observed.noRoles.landed ? observed.noRoles.record : String(observed.noRoles.error))
      .toMatchObject({ callId: 'toolu_m2', status: 'approved', decidedBy: { id: 'mallory', roles: [] } });
    expect.soft(ran).toEqual([{ path: '/tmp/m2', text: '' }]);
    expect.soft(observed.result?.chain.approvals?.map((r) => [r.callId, r.status])).toEqual([
      ['toolu_m1', 'rejected'],
      ['toolu_m2', 'approved'],
    ]);
    const updates = await approvalUpdatesInHistory(env.client, observed.workflowId);
    expect.soft(updates.accepted.map((d) => d.callId)).toEqual(['toolu_m2', 'toolu_m1']);
  });

  it('parallel calls: two wait at once and are decided one by one, the free call runs too, and all three results go back in one message', async () => {
    const written: Array<Record<string, unknown>> = [];
    const published: Array<Record<string, unknown>> = [];
    const { log, tools } = testTools();
    const model = createScriptedModel([
      {
        content: [
          say('Three things at once.'),
          useTool('write_file', { path: '/tmp/a', text: 'A' }, 'toolu_a'),
          useTool('publish_page', { path: '/www/b', text: 'B' }, 'toolu_b'),
          useTool('lookup', { key: 'c' }, 'toolu_c'),
        ],
      },
      { content: [useTool('finish', { result: 'two of three' })] },
    ]);

    const { workflowId, observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(written), writeFileTool(published, { name: 'publish_page' }), ...tools],
      input,
      during: async ({ h, workflowId }) => {
        const both = await waitForPending(h.agents, workflowId, 2);
        const status = await h.agents.status(workflowId);
        const ranWhileWaiting = log.calls.length + written.length + published.length;
        await h.agents.decide(workflowId, { callId: 'toolu_a', approved: true, by: alice });
        const left = await waitForPending(h.agents, workflowId, 1);
        await h.agents.decide(workflowId, { callId: 'toolu_b', approved: false, by: alice, reason: 'not public yet' });
        return { both, status, ranWhileWaiting, left };
      },
    });
    model.verify();

    expect(observed.both.map((r) => [r.callId, r.toolName, r.status])).toEqual([
      ['toolu_a', 'write_file', 'pending'],
      ['toolu_b', 'publish_page', 'pending'],
    ]);
    expect(observed.both[0]!.expiresAt).toBe(observed.both[1]!.expiresAt);
    expect(observed.status.waitingFor).toBe('approval of write_file (toolu_a), publish_page (toolu_b)');
    expect(observed.ranWhileWaiting).toBe(0);
    expect(observed.left.map((r) => r.callId)).toEqual(['toolu_b']);

    expect(written).toEqual([{ path: '/tmp/a', text: 'A' }]);
    expect(published).toEqual([]);
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'c' }]);
    expect(await toolActivities(env.client, workflowId)).toEqual(['write_file', 'lookup']);
    expect(result).toMatchObject({ success: true, toolCalls: 2 });
    expect(result.chain.approvals?.map((r) => [r.callId, r.status])).toEqual([
      ['toolu_a', 'approved'],
      ['toolu_b', 'rejected'],
    ]);

    // One user message answers the whole assistant turn, in the model's order.
    const sent = model.calls[1]!.messages;
    expect(sent.at(-2)?.role).toBe('assistant');
    expect(sent.at(-1)!.content).toHaveLength(3);
    expect(lastToolResults(sent).map((b) => [b.toolUseId, b.isError])).toEqual([
      ['toolu_a', false],
      ['toolu_b', true],
      ['toolu_c', false],
    ]);
    expect(lastToolResults(sent)[1]!.content).toBe('Not run: alice rejected this call: not public yet.');
    expect(lastToolResults(sent)[2]!.content).toBe('{"key":"c","value":10}');

    const updates = await approvalUpdatesInHistory(env.client, workflowId);
    expect(updates.accepted.map((d) => [d.callId, d.approved])).toEqual([
      ['toolu_a', true],
      ['toolu_b', false],
    ]);
    expect(updates.completed).toBe(2);
  });
});

describe.concurrent('approval policies, evaluated in the workflow', () => {
  it('a pathPrefix rule lets /tmp/x run freely and holds /data/../etc/passwd for approval', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const guarded = writeFileTool(ran, {
      name: 'open_path',
      approval: { anyOf: [{ when: 'pathPrefix', field: 'path', prefixes: ['/etc'] }] },
    });
    const model = createScriptedModel([
      { content: [useTool('open_path', { path: '/tmp/x' }, 'toolu_p1')] },
      { content: [useTool('open_path', { path: '/data/../etc/passwd' }, 'toolu_p2')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);

    const { observed, result } = await runScripted(env, {
      model,
      tools: [guarded],
      input,
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        const ranBefore = [...ran];
        await h.agents.decide(workflowId, { callId: 'toolu_p2', approved: true, by: alice });
        return { pending: pending!, ranBefore };
      },
    });
    model.verify();

    expect(observed.ranBefore).toEqual([{ path: '/tmp/x', text: '' }]);
    expect(observed.pending).toMatchObject({
      callId: 'toolu_p2',
      toolName: 'open_path',
      arguments: { path: '/data/../etc/passwd', text: '' },
    });
    expect(observed.pending.reason).toContain(
      'path "/data/../etc/passwd" is not normalised (empty, . or .. segment), so it cannot be shown to be outside "/etc"',
    );
    expect(ran).toEqual([
      { path: '/tmp/x', text: '' },
      { path: '/data/../etc/passwd', text: '' },
    ]);
    expect(result.success).toBe(true);
    expect(result.chain.approvals?.map((r) => [r.callId, r.status])).toEqual([['toolu_p2', 'approved']]);
    expect(lastToolResults(model.calls[1]!.messages)).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_p1', isError: false }),
    ]);
  });

  it("the run's `approvals` input overrides tools' own policies: lookup waits, write_file does not", async () => {
    const written: Array<Record<string, unknown>> = [];
    const { log, tools } = testTools();
    const model = createScriptedModel([
      { content: [useTool('write_file', { path: '/tmp/o', text: 'o' }, 'toolu_o1')] },
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_o2')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);

    const { observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(written), ...tools],
      input: { ...input, approvals: { lookup: 'always', write_file: 'never' } },
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        const before = { written: [...written], lookups: log.calls.length };
        await h.agents.decide(workflowId, { callId: 'toolu_o2', approved: true, by: alice });
        return { pending: pending!, before };
      },
    });
    model.verify();

    expect(observed.before).toEqual({ written: [{ path: '/tmp/o', text: 'o' }], lookups: 0 });
    expect(observed.pending).toMatchObject({
      callId: 'toolu_o2',
      toolName: 'lookup',
      reason: 'always requires approval',
    });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
    expect(result.success).toBe(true);
    expect(result.chain.approvals?.map((r) => [r.callId, r.toolName, r.status])).toEqual([
      ['toolu_o2', 'lookup', 'approved'],
    ]);
    expect(lastToolResults(model.calls[2]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'toolu_o2', content: '{"key":"alpha","value":50}', isError: false },
    ]);
  });
});

describe.concurrent('approval with the react-text strategy', () => {
  it('waits for approval of a text Action and runs it after approve', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const turns: ScriptedTurn[] = [
      {
        content: [
          say('Thought: I will save it.\nAction: write_file\nAction Input: {"path": "/tmp/r.txt", "text": "hi"}'),
        ],
      },
      { content: [say('Thought: Saved.\nFinal Answer: saved')] },
    ];
    const model = createScriptedModel(turns);

    const { workflowId, observed, result } = await runScripted(env, {
      model,
      tools: [writeFileTool(ran)],
      input: { ...input, strategy: 'react-text' },
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        const ranBefore = [...ran];
        await h.agents.decide(workflowId, { callId: pending!.callId, approved: true, by: alice });
        return { pending: pending!, ranBefore };
      },
    });
    model.verify();

    expect(observed.pending).toMatchObject({
      callId: expect.stringMatching(/^react_/),
      toolName: 'write_file',
      arguments: { path: '/tmp/r.txt', text: 'hi' },
      status: 'pending',
    });
    expect(observed.ranBefore).toEqual([]);
    expect(ran).toEqual([{ path: '/tmp/r.txt', text: 'hi' }]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'saved', toolCalls: 1 });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({ callId: observed.pending.callId, status: 'approved', decidedBy: alice }),
    ]);
    // The observation sits between two lines of the run's own marker (docs/react-text.md).
    const sent = model.calls[1]!.messages.at(-1);
    expect(sent?.role).toBe('user');
    expect(sent?.content).toHaveLength(1);
    const observation = sent?.content[0]?.type === 'text' ? sent.content[0].text : '';
    expect(observation).toMatch(
      /^Observation: \n(<<observation-[0-9a-z]+>>)\nwrote 2 characters to \/tmp\/r\.txt\n\1$/,
    );
    expect((await approvalUpdatesInHistory(env.client, workflowId)).accepted).toHaveLength(1);
  });
});
