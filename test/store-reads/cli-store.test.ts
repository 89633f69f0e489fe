import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { RunSearchResult } from '../../src/domain/store';
import { openChainStore } from '../../src/store/open-chain-store';
import { STORE_ONLY_LINE } from '../../src/cli/reading/chain-read';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';
import { CARD, storeRun, viewTools } from './store-fixture';

const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-store-cli-'));
const file = path.join(dir, 'store.sqlite');
const tag = Math.random().toString(36).slice(2, 8);
const KEY = `clikey${tag}`;
let runId: string;
const cli = (args: string[]) => runCli(args, cliEnv({ THOUGHTLINE_STORE: `sqlite:${file}` }));

beforeAll(async () => {
  const run = await runScripted(env, {
    tools: viewTools(),
    input: { task: `cli-${tag}: pay`, agentName: `cli-agent-${tag}`, caller: { id: 'dev', roles: [], tenant: 'acme' } },
    script: [
      { content: [useTool('pay', { card: CARD, amount: 3 }), useTool('lookup', { key: KEY })] },
      { content: [useTool('finish', { result: 'done' })] },
    ],
  });
  runId = run.workflowId;
  const store = (await openChainStore({ kind: 'sqlite', file }))!;
  await storeRun(store, new AgentClient({ client: env.client }), runId);
  await store.close();
}, 40_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('thoughtline search', () => {
  it("finds a run of the tenant named, and never another tenant's", async () => {
    const mine = await cli(['search', '--tenant', 'acme', '--text', KEY, '--tool', 'pay', '--json']);
    expect(mine.code, mine.stderr).toBe(0);
    const found = RunSearchResult.parse(JSON.parse(mine.stdout));
    expect(found.hits.map((hit) => hit.run.runId)).toEqual([runId]);
    expect(found.hits[0]!.matches[0]!.excerpt).toContain(KEY);
    const other = await cli(['search', '--tenant', 'globex', '--text', KEY, '--json']);
    expect(other.code, other.stderr).toBe(0);
    expect(RunSearchResult.parse(JSON.parse(other.stdout)).hits).toEqual([]);
  });

  it('finds a sensitive value in the auditor view only', async () => {
    const dev = await cli(['search', '--tenant', 'acme', '--text', CARD, '--json']);
    expect(RunSearchResult.parse(JSON.parse(dev.stdout)).hits).toEqual([]);
    const auditor = await cli(['search', '--tenant', 'acme', '--text', CARD, '--role', 'auditor', '--json']);
    expect(RunSearchResult.parse(JSON.parse(auditor.stdout)).hits).toHaveLength(1);
  });

  it('refuses a bad option with exit 2, and says when there is no store', async () => {
    expect((await cli(['search', '--min-cost', 'lots'])).code).toBe(2);
    const reason = await cli(['search', '--reason', 'gave_up']);
    expect(reason.code).toBe(2);
    expect(reason.stderr).toContain('reason');
    const none = await runCli(['search', '--text', 'x'], cliEnv({ THOUGHTLINE_STORE: `sqlite:${dir}/none.sqlite` }));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('THOUGHTLINE_STORE');
    expect(none.stderr).toContain('thoughtline store rebuild');
    expect(fs.existsSync(path.join(dir, 'none.sqlite'))).toBe(false);
  });
});

describe('thoughtline chain', () => {
  it('--summary prints the counts, the tools and the answer', async () => {
    const { code, stdout, stderr } = await cli(['chain', runId, '--summary']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`cli-agent-${tag}: cli-${tag}: pay`);
    expect(stdout).toMatch(/pay: 1 call, 0 failed/);
    expect(stdout).toMatch(/answer: done/);
    // Seed 003's times, from the model calls' own durations: two turns, no planner.
    expect(stdout).toMatch(/time: no planning · reasoning \d+\.\d s over 2 iterations, \d+\.\d s each, slowest/);
    expect(stdout).not.toContain(STORE_ONLY_LINE);
  });

  it('filters by type and tool, and says when the chain comes from the store only', async () => {
    const filtered = await cli(['chain', runId, '--tool', 'lookup', '--json']);
    expect(filtered.code, filtered.stderr).toBe(0);
    const chain = JSON.parse(filtered.stdout) as { steps: { type: string }[] };
    expect(chain.steps.map((step) => step.type)).toEqual(['tool_call', 'tool_result']);

    const store = (await openChainStore({ kind: 'sqlite', file }))!;
    await store.markTemporalGone(runId);
    await store.close();
    const gone = await cli(['chain', runId, '--type', 'synthesis']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toContain(STORE_ONLY_LINE);
    expect(gone.stdout).toContain('done');
  });
});
