import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { ANSWER, useImportedOrderRun } from './imported-order-run';

// Issue 79, "imported chains replay": a run exported signed and imported (`import:…`, no Temporal
// history) is forked at a step through the API and the CLI, the fork continuing from the
// conversation rebuilt from the import's steps and ending; the API makes it a case. Refusals: no
// such import, no such step, another tenant's caller, a role without the auditor's view.
// (The case replayed by `thoughtline eval`: import-eval-case.test.ts, in the slow stage.)
const env = useTestEnv();
const x = useImportedOrderRun(env);
const forkUrl = (id: string) => `/v1/runs/${encodeURIComponent(id)}/fork`;
const NOBODY = `import:${'0'.repeat(32)}`;

describe('an imported chain forks, through the API and the CLI', () => {
  it('POST /v1/runs/{import}/fork: the auditor of its tenant forks it and the fork ends; others are refused', async () => {
    const seen: ModelRequest[] = [];
    x.scriptFork(seen);
    const dry = await x.s.call('auditor', 'POST', forkUrl(x.importId), { atStep: 0, dryRun: true });
    expect(dry.status, JSON.stringify(dry.json)).toBe(201);
    expect(dry.json.runId).toBeUndefined();
    // An export carries no tool descriptions: every call after the kept steps may be made again.
    expect(dry.json.hazards).toEqual([
      expect.objectContaining({
        toolName: 'lookup_order',
        because: expect.stringContaining('not known to be read-only'),
      }),
    ]);

    const forked = await x.s.call('auditor', 'POST', forkUrl(x.importId), { atStep: x.atStep });
    expect(forked.status, JSON.stringify(forked.json)).toBe(201);
    expect(forked.json).toMatchObject({ fork: { workflowId: x.importId, atStep: x.atStep }, hazards: [] });
    expect(forked.json.rebuilt).toContain("rebuilt from the imported chain's steps");
    const result = await x.expectForkEnded(forked.json.runId);
    expect(result.chain.caller).toEqual({ id: 'auditor', roles: ['auditor'], tenant: 'acme' });
    expect(seen).toHaveLength(1);
    x.expectRebuilt(seen[0]!);

    // Another tenant's auditor and an unknown import read alike: 404, nothing started.
    const rival = await x.s.call('rival', 'POST', forkUrl(x.importId), { atStep: x.atStep });
    expect(rival.status).toBe(404);
    const unknown = await x.s.call('auditor', 'POST', forkUrl(NOBODY), { atStep: x.atStep });
    expect(unknown.status).toBe(404);
    expect(rival.json.error.message).toBe(unknown.json.error.message);
    // A developer does not read the auditor's view, which a fork carries whole.
    expect((await x.s.call('dev', 'POST', forkUrl(x.importId), { atStep: x.atStep })).status).toBe(403);
    const missing = await x.s.call('auditor', 'POST', forkUrl(x.importId), { atStep: 999 });
    expect(missing.status).toBe(409);
    expect(missing.json.error.message).toContain('there is no step 999 to fork at');
    expect(seen).toHaveLength(1);
  });

  it('thoughtline fork import:… --at-step N starts the fork from the chain store; it ends', async () => {
    const seen: ModelRequest[] = [];
    x.scriptFork(seen);
    const cli = cliEnv({
      THOUGHTLINE_STORE: `sqlite:${x.storeFile}`,
      THOUGHTLINE_TASK_QUEUE: x.s.h.taskQueue,
      THOUGHTLINE_USER: 'carol',
      THOUGHTLINE_ROLES: 'auditor',
    });
    const forked = await runCli(['fork', x.importId, '--at-step', String(x.atStep), '--json'], cli);
    expect(forked.code, forked.stderr).toBe(0);
    const forkId = JSON.parse(forked.stdout).workflowId as string;
    expect(forkId).toMatch(/^imported-[0-9a-f]{32}-fork-/);
    const result = await x.expectForkEnded(forkId);
    expect(result.chain.caller).toEqual({ id: 'carol', roles: ['auditor'], tenant: 'acme' });
    x.expectRebuilt(seen[0]!);

    const missing = await runCli(['fork', x.importId, '--at-step', '999'], cli);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/there is no step 999 to fork at/);
    const unknown = await runCli(['fork', NOBODY, '--at-step', '1'], cli);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`No imported run ${NOBODY} to fork`);
  }, 60_000);
});

describe('an imported chain becomes an evaluation case', () => {
  it("POST /v1/datasets/{name}/cases takes an import of the caller's tenant, tagged as rebuilt; another tenant's is 404", async () => {
    const added = await x.s.call('auditor', 'POST', '/v1/datasets/imported/cases', { runId: x.importId });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect(added.json.case).toMatchObject({
      task: x.task,
      expect: { terminationReason: 'success', answer: { match: 'exact', value: ANSWER } },
      input: { tools: ['lookup_order'] },
      tags: ['from-run', 'from-import', 'rebuilt-from-steps'],
    });
    expect(added.json.recording.lines).toBe(3);
    expect((await x.s.call('rival', 'POST', '/v1/datasets/imported/cases', { runId: x.importId })).status).toBe(404);
    expect((await x.s.call('auditor', 'POST', '/v1/datasets/imported/cases', { runId: NOBODY })).status).toBe(404);
  });
});
