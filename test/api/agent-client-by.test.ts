/**
 * `by` has one shape across AgentClient's decide, steer and answer: an id, or an id with roles.
 * Old call shapes keep working, and an id alone holds no role (approval checks stay as strict);
 * roles count only when a signature the run verifies covers them.
 */
import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { UpdateRefusedError } from '../../src/client/errors/update-refused-error';
import type { ReasoningStep } from '../../src/domain';
import { waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { resultStepOfTool } from '../helpers/chain-helpers';
import { gateTool, ScriptBook, sharedWorker, waitFor } from '../helpers/people-helpers';
import { scriptedInput } from '../helpers/scripted-input';
import { as, keysOf } from '../helpers/decision-signing';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

const book = new ScriptBook();
const signer = inMemorySigner();
const gates = gateTool();
const ran: Array<Record<string, unknown>> = [];
const shared = sharedWorker(
  () => [gates.tool, writeFileTool(ran, { name: 'deploy_config', approverRoles: ['ops'] })],
  book.provider,
);

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: unknown) => (e instanceof UpdateRefusedError ? 'refused' : `unexpected ${String(e)}`),
  );

describe('AgentClient: one shape for `by`', () => {
  it('decide takes an id (no roles) or an id with roles', async () => {
    const task = 'by: decide';
    const model = book.script(task, [
      { content: [useTool('deploy_config', { path: '/srv/app.yaml', text: 'replicas: 3' }, 'toolu_by_d1')] },
      { content: [useTool('finish', { result: 'deployed' })] },
    ]);
    const handle = await shared.h.agents.start({ ...scriptedInput(task), ...keysOf(signer) });
    const id = handle.workflowId;
    await waitForPending(shared.h.agents, id);

    // An id alone holds no role: the tool's approverRoles refuse it.
    expect(await refusal(shared.h.agents.decide(id, { callId: 'toolu_by_d1', approved: true, by: 'carol' }))).toBe(
      'refused',
    );
    // Roles the caller names without a signature are claimed, not held: refused too.
    const carol = { id: 'carol', roles: ['ops'], note: 'not a person field' };
    expect(await refusal(shared.h.agents.decide(id, { callId: 'toolu_by_d1', approved: true, by: carol }))).toBe(
      'refused',
    );
    // Signed with a key the run holds, they count; extra fields of its object are not sent.
    const decided = await shared.h.agents.decide(
      id,
      { callId: 'toolu_by_d1', approved: true, by: carol },
      as(signer, 'carol', ['ops']),
    );
    expect(decided).toMatchObject({ status: 'approved', decidedBy: { id: 'carol', roles: ['ops'] } });
    expect(decided.decidedBy).toEqual({ id: 'carol', roles: ['ops'] });

    expect(await handle.result()).toMatchObject({ success: true, finalAnswer: 'deployed' });
    model.verify();
    expect(ran).toEqual([{ path: '/srv/app.yaml', text: 'replicas: 3' }]);
  });

  it('steer and answer take the same shapes; the chain names the id', async () => {
    const task = 'by: steer and answer';
    const model = book.script(task, [
      { content: [useTool('wait_for_gate', { gate: 'by' })] },
      { content: [say('Which city?'), useTool('ask_person', { question: 'Which city?' }, 'toolu_by_q')] },
      { content: [useTool('finish', { result: 'Paris it is' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task, { allowQuestions: true }));
    const id = handle.workflowId;
    await waitFor('the gated tool to start', () => gates.started('by'));
    await shared.h.agents.steer(id, 'Use metric units.', { id: 'alice', roles: ['ops'] });
    await shared.h.agents.steer(id, 'Be brief.', 'dan');
    await waitFor('two instructions queued', async () => (await shared.h.agents.status(id)).steeringQueued === 2);
    gates.release('by');

    await waitFor('the open question', async () => (await shared.h.agents.status(id)).openQuestion !== undefined);
    await expect(shared.h.agents.answer(id, 'Paris', { id: 'bob' })).resolves.toBe('Answer received; the run goes on.');
    const result = await handle.result();
    model.verify();

    const steering = result.chain.steps.filter((s: ReasoningStep) => s.fromPerson?.kind === 'steer');
    expect(steering.map((s) => s.fromPerson)).toEqual([
      { kind: 'steer', by: 'alice' },
      { kind: 'steer', by: 'dan' },
    ]);
    expect(resultStepOfTool(result.chain.steps, 'ask_person')).toMatchObject({
      fromPerson: { kind: 'answer', by: 'bob' },
      toolResult: { result: 'Paris' },
    });
  });
});
