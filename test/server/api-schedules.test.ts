import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { triggerSchedule } from '../../src/client/schedules/agent-schedules';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { startLightServer } from './light-server';
import { eventually, routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const reporter = defineAgent({
  id: 'reporter',
  description: 'Writes the daily report.',
  version: '1.0.0',
  systemPrompt: 'You write reports.',
});
let s: ServerHarness;
const name = `daily-${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model, agents: [reporter] });
});
afterAll(async () => {
  // A schedule outlives the test on the shared dev server unless deleted.
  await s?.call('dev', 'DELETE', `/v1/schedules/${name}`);
  await s?.close();
});

const body = {
  name,
  agent: 'reporter',
  input: `sched-api: write the report`,
  model: SCRIPTED_MODEL,
  every: '1h',
  overlap: 'buffer_one',
  catchup: '10m',
  paused: true,
  note: 'made by the test',
};

describe('/v1/schedules', () => {
  it('creates a schedule of an agent, lists it, starts a run attributed to its owner and marked with its origin, pauses, resumes and deletes it', async () => {
    model.script('sched-api', [{ content: [useTool('finish', { result: 'report written' })] }]);
    const created = await s.call('dev', 'POST', '/v1/schedules', body);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/schedules/${name}`);
    expect(created.json).toMatchObject({
      name,
      agent: 'reporter',
      every: '1h',
      overlap: 'buffer_one',
      catchup: '10m',
      paused: true,
      note: 'made by the test',
      owner: 'dev',
      nextRuns: [],
      // This server was given no --agents: it says it could not check the agent.
      warning: expect.stringContaining('cannot check that a worker registers agent "reporter"'),
    });

    // Listing reads Temporal's visibility, which may lag the create by a moment.
    const listed = await eventually('the schedule listed', async () => {
      const { status, json } = await s.call('user', 'GET', '/v1/schedules');
      return status === 200 && json.schedules.some((x: { name: string }) => x.name === name) ? json : undefined;
    });
    expect(listed.schedules.find((x: { name: string }) => x.name === name)).toMatchObject({ owner: 'dev' });
    // Another tenant sees neither the list entry nor the schedule.
    const rival = await s.call('rival', 'GET', '/v1/schedules');
    expect(rival.json.schedules.map((x: { name: string }) => x.name)).not.toContain(name);
    expect((await s.call('rival', 'GET', `/v1/schedules/${name}`)).status).toBe(404);
    expect((await s.call('rival', 'DELETE', `/v1/schedules/${name}`)).status).toBe(404);

    await triggerSchedule(s.h.agents, name, { tenant: 'acme' });
    const runId = await eventually('the scheduled run', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/schedules/${name}`);
      return json.recentRuns?.[0]?.runId as string | undefined;
    });
    expect(runId.startsWith(`scheduled-tl.acme.${name}-`)).toBe(true);
    const run = await eventually(`${runId} to complete`, async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    expect(run.origin).toEqual({ kind: 'schedule', schedule: name });
    expect(run.agentName).toBe('reporter');
    // Temporal's own mark of a scheduled run, and the owner's attribution as for a direct start.
    const description = await s.h.agents.getHandle(runId).describe();
    expect(description.searchAttributes.TemporalScheduledById).toEqual([`tl.acme.${name}`]);
    expect(description.searchAttributes.ThoughtlineCaller).toEqual(['dev']);
    expect(description.searchAttributes.ThoughtlineTenant).toEqual(['acme']);
    // The other tenant cannot read the run.
    expect((await s.call('rival', 'GET', `/v1/runs/${runId}`)).status).toBe(404);

    const resumed = await s.call('dev', 'POST', `/v1/schedules/${name}/unpause`);
    expect(resumed.status, JSON.stringify(resumed.json)).toBe(200);
    expect(resumed.json.paused).toBe(false);
    expect(resumed.json.nextRuns.length).toBeGreaterThan(0);
    const paused = await s.call('dev', 'POST', `/v1/schedules/${name}/pause`, { note: 'quiet week' });
    expect(paused.json).toMatchObject({ paused: true, note: 'quiet week' });

    const deleted = await s.call('dev', 'DELETE', `/v1/schedules/${name}`);
    expect(deleted).toMatchObject({ status: 200, json: { deleted: name } });
    expect((await s.call('dev', 'GET', `/v1/schedules/${name}`)).status).toBe(404);
  });

  it('lets only developers and operators create, pause or delete; anyone of the tenant reads', async () => {
    const refused = await s.call('user', 'POST', '/v1/schedules', { ...body, name: `${name}-x` });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain('developer or operator');
    expect((await s.call('user', 'POST', `/v1/schedules/${name}/pause`)).status).toBe(403);
    expect((await s.call('user', 'DELETE', `/v1/schedules/${name}`)).status).toBe(403);
    expect((await s.call(undefined, 'GET', '/v1/schedules')).status).toBe(401);
  });

  it('refuses bad settings with typed errors naming the field, and a taken name with 409', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, every: undefined }, 'give exactly one of cron and every'],
      [{ ...body, cron: '0 * * * *' }, 'give exactly one of cron and every'],
      [{ ...body, every: '1 hour' }, 'every is a whole number and a unit'],
      [{ ...body, every: undefined, cron: 'rm -rf /' }, 'cron takes five fields'],
      [{ ...body, overlap: 'sometimes' }, 'overlap'],
      [{ ...body, catchup: '1s' }, 'catchup is between 10s and 366d'],
      [{ ...body, name: 'Has Spaces' }, 'a schedule name is'],
      [{ ...body, input: 'x'.repeat(16 * 1024 + 1) }, 'input is at most 16384 bytes'],
      [{ ...body, caller: { id: 'someone-else' } }, 'caller'],
    ];
    for (const [bad, words] of cases) {
      const answer = await s.call('dev', 'POST', '/v1/schedules', bad);
      expect(answer.status, JSON.stringify(bad).slice(0, 100)).toBe(400);
      expect(JSON.stringify(answer.json)).toContain(words);
    }
    // At the limit: exactly 16 KiB of input is taken.
    const atLimit = `${name}-limit`;
    const ok = await s.call('dev', 'POST', '/v1/schedules', { ...body, name: atLimit, input: 'y'.repeat(16 * 1024) });
    expect(ok.status, JSON.stringify(ok.json).slice(0, 300)).toBe(201);
    const again = await s.call('dev', 'POST', '/v1/schedules', { ...body, name: atLimit });
    expect(again.status).toBe(409);
    expect((await s.call('dev', 'DELETE', `/v1/schedules/${atLimit}`)).status).toBe(200);
  });

  it('refuses a schedule of an agent the workers do not register when the server knows its agents (--agents)', async () => {
    const light = await startLightServer(env, { catalog: createAgentCatalog([reporter]) });
    const post = async (settings: Record<string, unknown>) => {
      const response = await fetch(`${light.server.url}/v1/schedules`, {
        method: 'POST',
        headers: { authorization: `Bearer ${light.tokens.dev}`, 'content-type': 'application/json' },
        body: JSON.stringify(settings),
      });
      return { status: response.status, json: (await response.json()) as any };
    };
    const ghost = `${name}-ghost`;
    const known = `${name}-known`;
    try {
      const refused = await post({ ...body, name: ghost, agent: 'ghost' });
      expect(refused.status, JSON.stringify(refused.json)).toBe(400);
      expect(refused.json.error.message).toBe(
        'No agent named "ghost" is registered by this deployment\'s workers (this server\'s --agents); schedulable: reporter.',
      );
      const taken = await post({ ...body, name: known });
      expect(taken.status, JSON.stringify(taken.json)).toBe(201);
      expect(taken.json.warning).toBeUndefined();
    } finally {
      // Whatever was created (a schedule outlives the test on the shared dev server).
      for (const created of [ghost, known])
        await fetch(`${light.server.url}/v1/schedules/${created}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${light.tokens.dev}` },
        });
      await light.close();
    }
  });
});
