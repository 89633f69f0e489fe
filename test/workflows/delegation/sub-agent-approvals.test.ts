import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { StatusAttribute, argumentsHash, type AgentInputInit, type AgentResult } from '../../../src/domain';
import {
  approvalUpdatesInHistory,
  holdAfter,
  lastToolResults,
  pollFor,
  toolActivities,
  waitForPending,
  writeFileTool,
} from '../../helpers/approval-helpers';
import { cliEnv, runCli } from '../../helpers/cli-process';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { finishWithLastResult, waitForChildren, withScript } from '../../helpers/sub-agent-scripts';
import { createHarness, type AgentHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const alice = { id: 'alice', roles: ['ops'] };
const bob = { id: 'bob', roles: ['ops'] };
const ARGS = { path: '/tmp/report.txt', text: 'hello' };
const PATH = ['lead', 'mid_agent', 'leaf_agent'];
/** Queries of a run busy with a child's report can be slow on a replaying worker; polls wait this long. */
const POLL_MS = 30_000;

interface Tree {
  h: AgentHarness;
  rootId: string;
  midId: string;
  leafId: string;
  /** Arguments of every write_file execution. */
  ran: ReadonlyArray<Record<string, unknown>>;
}

/**
 * lead → mid_agent → leaf_agent, where the leaf calls write_file (approval: always). Each level
 * finishes with what the level below said. `during` runs once the leaf waits for the decision.
 */
async function approvalTwoDown<T>(during: (tree: Tree) => Promise<T>) {
  const ran: Array<Record<string, unknown>> = [];
  // The root's second model call waits until `during` is over, so the root is still running after the tree below it ended.
  const leadScript = createScriptedModel([
    { content: [useTool('mid_agent', { task: 'Have the report written' }, 'call_mid')] },
    { content: finishWithLastResult('lead: ') },
  ]);
  const held = holdAfter(leadScript, 1);
  const lead = withScript(held.model, leadScript);
  const mid = createScriptedModel([
    { content: [useTool('leaf_agent', { task: 'Write the report to /tmp/report.txt' }, 'call_leaf')] },
    { content: finishWithLastResult('mid: ') },
  ]);
  const leaf = createScriptedModel([
    { content: [useTool('write_file', ARGS, 'call_write')] },
    { content: finishWithLastResult('leaf: ') },
  ]);
  const models = modelsByName({ lead, mid, leaf });
  const h = await createHarness(env, { tools: [writeFileTool(ran)], models: { scripted: models } });
  const input: AgentInputInit = {
    task: 'Get the report written',
    agentName: 'lead',
    model: scripted('lead'),
    approvalTimeoutMs: 120_000,
    agents: {
      mid_agent: { description: 'Coordinates writing', model: scripted('mid'), tools: ['leaf_agent'] },
      leaf_agent: { description: 'Writes files', model: scripted('leaf'), tools: ['write_file'] },
    },
  };
  const run = await h.worker.runUntil(async () => {
    const handle = await h.agents.start(input);
    const rootId = handle.workflowId;
    const [midId] = await waitForChildren(env.client, rootId);
    const [leafId] = await waitForChildren(env.client, midId!);
    // The leaf's approval timer is open: it waits.
    await waitForPending(h.agents, leafId!);
    let observed: T;
    try {
      observed = await during({ h, rootId, midId: midId!, leafId: leafId!, ran });
    } finally {
      held.release();
    }
    const result = await handle.result();
    const [midResult, leafResult] = await Promise.all([h.agents.result(midId!), h.agents.result(leafId!)]);
    return { observed, result, midResult, leafResult, rootId, midId: midId!, leafId: leafId! };
  });
  models.verify();
  return { ...run, ran, leaf };
}

/** The root's pending list once it has `count` records (reported up two levels). */
const rootPending = (h: AgentHarness, rootId: string, count: number) =>
  pollFor(
    `${count} pending approval(s) listed by ${rootId}`,
    async () => {
      const pending = (await h.agents.status(rootId)).pendingApprovals;
      return pending.length === count ? pending : undefined;
    },
    POLL_MS,
    100,
  );

const searchStatus = async (h: AgentHarness, workflowId: string) =>
  (await h.agents.getHandle(workflowId).describe()).typedSearchAttributes.get(StatusAttribute);

describe.concurrent('approvals two levels down', () => {
  it('the root lists the grandchild’s call, is searchable as waiting_approval, and a decision naming the root approves it where it waits', async () => {
    const { observed, result, midResult, leafResult, rootId, midId, leafId, ran, leaf } = await approvalTwoDown(
      async ({ h, rootId, midId, leafId, ran }) => {
        const [atRoot] = await rootPending(h, rootId, 1);
        const rootStatus = await h.agents.status(rootId);
        const atMid = (await h.agents.status(midId)).pendingApprovals;
        const rootSearch = await pollFor(
          'the root searchable as waiting_approval',
          async () => ((await searchStatus(h, rootId)) === 'waiting_approval' ? 'waiting_approval' : undefined),
          POLL_MS,
          100,
        );
        const ranBefore = [...ran];
        const decided = await h.agents.decide(rootId, { callId: 'call_write', approved: true, by: alice });
        // The root is held at its next model call, so an empty list means the report came up, not that the root ended.
        const emptied = await pollFor(
          'the root’s pending list to empty',
          async () => ((await h.agents.status(rootId)).pendingApprovals.length === 0 ? true : undefined),
          POLL_MS,
          100,
        );
        const rootRunning = (await h.agents.getHandle(rootId).describe()).status.name;
        const searchAfter = await pollFor(
          'the root no longer waiting_approval',
          async () => {
            const value = await searchStatus(h, rootId);
            return value !== 'waiting_approval' ? value : undefined;
          },
          POLL_MS,
          100,
        );
        return {
          atRoot: atRoot!,
          rootStatus,
          atMid,
          rootSearch,
          ranBefore,
          decided,
          emptied,
          rootRunning,
          searchAfter,
        };
      },
    );

    // What the root showed: the grandchild's call, where it waits and who delegated to whom.
    expect(observed.atRoot).toMatchObject({
      callId: 'call_write',
      toolName: 'write_file',
      arguments: ARGS,
      argumentsHash: argumentsHash(ARGS),
      status: 'pending',
      workflowId: leafId,
      agentPath: PATH,
    });
    expect(observed.rootStatus.waitingFor).toBe('approval of write_file (call_write in leaf_agent)');
    expect(observed.atMid).toEqual([observed.atRoot]);
    expect(observed.rootSearch).toBe('waiting_approval');
    expect(observed.ranBefore).toEqual([]);

    // Decided in the grandchild, by the person named, through the root's id.
    expect(observed.decided).toMatchObject({ callId: 'call_write', status: 'approved', decidedBy: alice });
    expect(observed.emptied).toBe(true);
    expect(observed.rootRunning).toBe('RUNNING');
    expect(observed.searchAfter).not.toBe('waiting_approval');
    const leafUpdates = await approvalUpdatesInHistory(env.client, leafId);
    expect(leafUpdates.accepted).toEqual([
      { callId: 'call_write', approved: true, by: alice, argumentsHash: argumentsHash(ARGS) },
    ]);
    expect(leafUpdates.completed).toBe(1);
    for (const id of [rootId, midId]) expect((await approvalUpdatesInHistory(env.client, id)).accepted).toEqual([]);

    // The tool ran once, in the grandchild, and its result flowed up every level.
    expect(ran).toEqual([ARGS]);
    expect(await toolActivities(env.client, leafId)).toEqual(['write_file']);
    expect(await toolActivities(env.client, rootId)).toEqual([]);
    expect(lastToolResults(leaf.calls[1]!.messages)).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'call_write',
        content: 'wrote 5 characters to /tmp/report.txt',
        isError: false,
      },
    ]);
    expect(leafResult.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'call_write', status: 'approved', decidedBy: alice }),
    ]);
    expect(leafResult.finalAnswer).toBe('leaf: wrote 5 characters to /tmp/report.txt');
    expect(midResult.finalAnswer).toBe('mid: leaf: wrote 5 characters to /tmp/report.txt');
    expect(result).toMatchObject({
      success: true,
      finalAnswer: 'lead: mid: leaf: wrote 5 characters to /tmp/report.txt',
    });
    // Only the grandchild holds the record; the levels above listed it while it was pending.
    for (const r of [result, midResult] as AgentResult[]) expect(r.chain.approvals ?? []).toEqual([]);
  });

  it('a rejection sent naming the middle child reaches the grandchild: the tool never runs and the reason flows up', async () => {
    const { observed, result, leafResult, midId, leafId, ran, leaf } = await approvalTwoDown(
      async ({ h, rootId, midId }) => {
        await rootPending(h, rootId, 1);
        return h.agents.decide(midId, {
          callId: 'call_write',
          approved: false,
          by: bob,
          reason: 'reports go to /srv, not /tmp',
        });
      },
    );

    expect(observed).toMatchObject({
      callId: 'call_write',
      status: 'rejected',
      decidedBy: bob,
      note: 'reports go to /srv, not /tmp',
    });
    expect(ran).toEqual([]);
    expect(await toolActivities(env.client, leafId)).toEqual([]);
    expect((await approvalUpdatesInHistory(env.client, leafId)).accepted).toEqual([
      expect.objectContaining({ callId: 'call_write', approved: false, reason: 'reports go to /srv, not /tmp' }),
    ]);
    expect((await approvalUpdatesInHistory(env.client, midId)).accepted).toEqual([]);
    const reason = 'Not run: bob rejected this call: reports go to /srv, not /tmp.';
    expect(lastToolResults(leaf.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'call_write', content: reason, isError: true },
    ]);
    expect(leafResult.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'call_write', status: 'rejected', decidedBy: bob }),
    ]);
    expect(result).toMatchObject({ success: true, finalAnswer: `lead: mid: leaf: ${reason}` });
  });

  it('CLI: status <root> shows where the call waits, and approve <root> <callId> decides it in the grandchild', async () => {
    const asNobody = { THOUGHTLINE_USER: '', THOUGHTLINE_ROLES: '' };
    const { observed, result, leafId, ran } = await approvalTwoDown(async ({ h, rootId }) => {
      await rootPending(h, rootId, 1);
      const status = await runCli(['status', rootId], cliEnv(asNobody));
      const approved = await runCli(
        ['approve', rootId, 'call_write', '--yes', '--as', 'alice', '--roles', 'ops'],
        cliEnv(asNobody),
      );
      return { status, approved };
    });

    const { status, approved } = observed;
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Pending approvals (1):');
    expect(status.stdout).toContain('call_write  write_file  (waiting since');
    expect(status.stdout).toContain(
      `  run: ${leafId} (lead › mid_agent › leaf_agent) · decide with: thoughtline approve|reject ${leafId} call_write`,
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`approved by alice: write_file (call_write) in ${leafId}`);
    expect(ran).toEqual([ARGS]);
    expect(result).toMatchObject({
      success: true,
      finalAnswer: 'lead: mid: leaf: wrote 5 characters to /tmp/report.txt',
    });
  });
});
