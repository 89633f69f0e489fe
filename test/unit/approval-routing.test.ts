import { describe, expect, it } from 'vitest';
import { renderPendingApproval } from '../../src/client/decisions/render-pending-approval';
import { routeApproval, waitingRun } from '../../src/client/decisions/route-approval';
import type { ApprovalRecord } from '../../src/domain';

const ROOT = 'agent-1';
const CHILD = 'agent-1/researcher-4';
const GRANDCHILD = 'agent-1/researcher-4/writer-7';

const record = (
  callId: string,
  toolName: string,
  from?: { workflowId: string; agentPath: string[] },
): ApprovalRecord => ({
  callId,
  stepId: `s-${callId}`,
  toolName,
  arguments: { path: `/srv/${callId}` },
  argumentsHash: `h-${callId}`,
  reason: 'always requires approval',
  approverRoles: [],
  runId: 'run-x',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  status: 'pending',
  ...(from ?? {}),
});
const fromChild = { workflowId: CHILD, agentPath: ['orchestrator', 'researcher'] };
const fromGrandchild = { workflowId: GRANDCHILD, agentPath: ['orchestrator', 'researcher', 'writer'] };

describe('routeApproval', () => {
  it('sends a record without workflowId to the run named (its own call)', () => {
    const own = record('toolu_1', 'write_file');
    expect(routeApproval(ROOT, [own], { callId: 'toolu_1' })).toEqual({
      kind: 'send',
      workflowId: ROOT,
      callId: 'toolu_1',
      record: own,
    });
    expect(routeApproval(ROOT, [own])).toEqual({ kind: 'send', workflowId: ROOT, callId: 'toolu_1', record: own });
  });

  it("sends a sub-agent's call, named through an ancestor, to the run that waits", () => {
    const own = record('toolu_1', 'write_file');
    const child = record('toolu_2', 'deploy', fromChild);
    const grandchild = record('toolu_3', 'send_mail', fromGrandchild);
    expect(routeApproval(ROOT, [own, child, grandchild], { callId: 'toolu_2' })).toEqual({
      kind: 'send',
      workflowId: CHILD,
      callId: 'toolu_2',
      record: child,
    });
    expect(routeApproval(ROOT, [own, child, grandchild], { callId: 'toolu_3' })).toMatchObject({
      kind: 'send',
      workflowId: GRANDCHILD,
    });
    expect(routeApproval(CHILD, [child, grandchild], { callId: 'toolu_3' })).toMatchObject({
      kind: 'send',
      workflowId: GRANDCHILD,
    });
  });

  it('picks the only pending call of the tree when none is named, wherever it waits', () => {
    const grandchild = record('toolu_3', 'send_mail', fromGrandchild);
    expect(routeApproval(ROOT, [grandchild])).toEqual({
      kind: 'send',
      workflowId: GRANDCHILD,
      callId: 'toolu_3',
      record: grandchild,
    });
  });

  it('keeps working when the child is named directly, whether or not its own records carry its id', () => {
    const bare = record('toolu_2', 'deploy');
    const tagged = record('toolu_2', 'deploy', { workflowId: CHILD, agentPath: ['orchestrator', 'researcher'] });
    expect(routeApproval(CHILD, [bare], { callId: 'toolu_2' })).toMatchObject({
      kind: 'send',
      workflowId: CHILD,
      record: bare,
    });
    expect(routeApproval(CHILD, [tagged], { callId: 'toolu_2' })).toMatchObject({
      kind: 'send',
      workflowId: CHILD,
      record: tagged,
    });
  });

  it('sends a call id nobody lists to the run named, without a record, so its validator explains', () => {
    expect(routeApproval(ROOT, [record('toolu_1', 'write_file')], { callId: 'toolu_nope' })).toEqual({
      kind: 'send',
      workflowId: ROOT,
      callId: 'toolu_nope',
    });
    expect(routeApproval(ROOT, [], { callId: 'toolu_nope' })).toEqual({
      kind: 'send',
      workflowId: ROOT,
      callId: 'toolu_nope',
    });
  });

  it('refuses a call id pending in two runs and lists the commands that name each run', () => {
    const pending = [record('toolu_9', 'write_file'), record('toolu_9', 'deploy', fromChild)];
    const approve = routeApproval(ROOT, pending, { callId: 'toolu_9' });
    expect(approve).toEqual({
      kind: 'refuse',
      message: [
        'toolu_9 is pending in 2 runs; name the run that waits:',
        `  thoughtline approve ${ROOT} toolu_9    (write_file)`,
        `  thoughtline approve ${CHILD} toolu_9    (orchestrator › researcher: deploy)`,
      ].join('\n'),
    });
    const reject = routeApproval(ROOT, pending, { callId: 'toolu_9', verb: 'reject' });
    expect(reject.kind === 'refuse' && reject.message).toContain(`thoughtline reject ${CHILD} toolu_9 --reason TEXT`);
  });

  it('does not call one run listed twice ambiguous', () => {
    const a = record('toolu_2', 'deploy', fromChild);
    expect(routeApproval(ROOT, [a, { ...a }], { callId: 'toolu_2' })).toMatchObject({
      kind: 'send',
      workflowId: CHILD,
      record: a,
    });
    // The run's own record with its id spelled out is the same run as one without.
    expect(
      routeApproval(
        ROOT,
        [record('toolu_1', 'x'), record('toolu_1', 'x', { workflowId: ROOT, agentPath: ['orchestrator'] })],
        { callId: 'toolu_1' },
      ),
    ).toMatchObject({
      kind: 'send',
      workflowId: ROOT,
    });
  });

  it('refuses when nothing is pending, or several are and none is named', () => {
    expect(routeApproval(ROOT, [])).toEqual({ kind: 'refuse', message: `${ROOT} has no calls waiting for approval.` });
    const several = routeApproval(ROOT, [record('toolu_1', 'write_file'), record('toolu_2', 'deploy', fromChild)]);
    expect(several.kind).toBe('refuse');
    const message = several.kind === 'refuse' ? several.message : '';
    expect(message).toContain(`${ROOT} has 2 pending calls; name one:`);
    expect(message).toContain('toolu_1  write_file  (waiting since');
    expect(message).toContain(
      `  run: ${CHILD} (orchestrator › researcher) · decide with: thoughtline approve|reject ${CHILD} toolu_2`,
    );
  });
});

describe('waitingRun / renderPendingApproval', () => {
  it('treats a missing workflowId as the run named', () => {
    expect(waitingRun(record('a', 't'), ROOT)).toBe(ROOT);
    expect(waitingRun(record('a', 't', fromChild), ROOT)).toBe(CHILD);
  });

  it("adds the waiting run and its command only to another run's record", () => {
    const own = renderPendingApproval({ ...record('toolu_1', 'write_file'), approverRoles: ['ops'] }, ROOT);
    expect(own).toBe(
      [
        'toolu_1  write_file  (waiting since 2026-01-01T00:00:00.000Z, expires 2026-01-01T01:00:00.000Z · approvers: ops)',
        '  why: always requires approval',
        '  arguments: {"path":"/srv/toolu_1"}',
      ].join('\n'),
    );
    expect(
      renderPendingApproval(record('toolu_1', 'write_file', { workflowId: ROOT, agentPath: ['orchestrator'] }), ROOT),
    ).not.toContain('run:');
    expect(renderPendingApproval(record('toolu_3', 'send_mail', fromGrandchild), ROOT).split('\n')[3]).toBe(
      `  run: ${GRANDCHILD} (orchestrator › researcher › writer) · decide with: thoughtline approve|reject ${GRANDCHILD} toolu_3`,
    );
  });
});
