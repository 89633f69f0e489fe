import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { childRunIds } from '../helpers/sub-agent-scripts';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import {
  eventually,
  routedModel,
  startAndComplete,
  startServerHarness,
  type Person,
  type ServerHarness,
} from './server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model });
});
afterAll(async () => s?.close());

/** Starts a run over HTTP whose model plays `turns`, and waits until it has ended. */
async function runToEnd(
  who: Person,
  key: string,
  turns: Parameters<typeof model.script>[1],
  extra: Record<string, unknown> = {},
): Promise<string> {
  if (turns.length > 0) model.script(key, turns);
  return startAndComplete(s, who, { task: `${key}: look things up`, model: SCRIPTED_MODEL, ...extra });
}

const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });

describe('POST /v1/runs and GET /v1/runs/{id}', () => {
  it("starts a run as the authenticated caller and reports its status in the caller's view", async () => {
    model.script('run-basic', [{ content: [say('Looking up.'), useTool('lookup', { key: 'abc' })] }, finish('30')]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'run-basic: look up abc',
      model: SCRIPTED_MODEL,
      agentName: 'finder',
    });
    expect(started.status).toBe(201);
    const runId = started.json.runId as string;
    expect(started.json.links).toEqual({
      self: `/v1/runs/${runId}`,
      chain: `/v1/runs/${runId}/chain`,
      events: `/v1/runs/${runId}/events`,
    });

    const done = await eventually('completion', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    expect(done).toMatchObject({
      runId,
      status: 'completed',
      agentName: 'finder',
      chainStatus: 'completed',
      iterations: 2,
      pendingApprovals: [],
      subAgents: [],
    });
    expect(done.stepCount).toBeGreaterThanOrEqual(4);
    expect(done.progress.line).toMatch(/^step \d+ · iteration 2\/10 · \$0\.00$/);
    // Row 003 #35: the run's reasoning time, kept by the run (the scripted model says 0 ms a turn).
    expect(done.progress.times).toEqual({
      planningMs: 0,
      planningCalls: 0,
      reasoningMs: 0,
      reasoningIterations: 2,
      reasoningPerIterationMs: 0,
      slowestIterationMs: 0,
    });

    // The caller in the run's input is the token's identity, whatever the body could have said.
    const history = await s.h.agents.getHandle(runId).fetchHistory();
    const input = env.client.options.loadedDataConverter.payloadConverter.fromPayload<{ caller: unknown }>(
      history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!,
    );
    expect(input.caller).toEqual({ id: 'dev', roles: ['developer'], tenant: 'acme' });
  });

  it('refuses a body with caller (or another server-set field), naming the field, and a bad field by its zod path', async () => {
    const withCaller = await s.call('dev', 'POST', '/v1/runs', {
      task: 'x',
      caller: { id: 'boss', roles: ['auditor'] },
    });
    expect(withCaller.status).toBe(400);
    expect(withCaller.json.error).toMatchObject({
      code: 'bad_request',
      issues: [{ path: ['caller'], message: 'set by the server' }],
    });
    expect(withCaller.json.error.message).toMatch(/caller is set by the server/);

    const continued = await s.call('dev', 'POST', '/v1/runs', {
      task: 'x',
      continued: {},
      signedDecisions: { publicKeys: {} },
    });
    expect(continued.json.error.issues.map((i: { path: string[] }) => i.path[0])).toEqual([
      'continued',
      'signedDecisions',
    ]);
    // A forged fork start would give a run someone else's steps and a made-up origin.
    const forged = await s.call('dev', 'POST', '/v1/runs', {
      task: 'x',
      fork: {
        from: { workflowId: 'other-tenants-run', atStep: 1, keptThroughStep: 1 },
        steps: [],
        messages: [],
        ledger: {},
      },
    });
    expect(forged.status).toBe(400);
    expect(forged.json.error.issues.map((i: { path: string[] }) => i.path[0])).toEqual(['fork']);

    const bad = await s.call('dev', 'POST', '/v1/runs', { task: 'x', maxIterations: -1 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toEqual(['maxIterations']);
    expect(bad.json.error.message).toMatch(/body\.maxIterations/);

    // A starter may require approvals, never relax a tool's own policy.
    const loosened = await s.call('dev', 'POST', '/v1/runs', {
      task: 'x',
      approvals: { lookup: 'always', deploy: 'never', pay: { anyOf: [{ when: 'always' }] } },
    });
    expect(loosened.status).toBe(400);
    expect(loosened.json.error.issues.map((i: { path: string[] }) => i.path)).toEqual([
      ['approvals', 'deploy'],
      ['approvals', 'pay'],
    ]);

    // What end users see of a tool is for people who may read more than they do.
    const widened = await s.call('user', 'POST', '/v1/runs', {
      task: 'x',
      visibilityByTool: { lookup: { level: 'full' } },
    });
    expect(widened.status).toBe(403);
    expect(widened.json.error.message).toMatch(/visibilityByTool .*developer or operator role/);

    const unknown = await s.call('dev', 'POST', '/v1/runs', { task: 'x', maxIteration: 3 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json.error.issues)).toContain('maxIteration');
  });

  it("answers 404 with the same body for another tenant's run and for an unknown one", async () => {
    const runId = await runToEnd('dev', 'run-tenant', [finish('done')]);
    const rival = await s.call('rival', 'GET', `/v1/runs/${runId}`);
    const unknown = await s.call('rival', 'GET', '/v1/runs/agent-no-such-run');
    expect(rival.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(rival.json).toEqual(unknown.json);
    // A caller without a tenant is not every tenant.
    expect((await s.call('solo', 'GET', `/v1/runs/${runId}`)).status).toBe(404);
    expect((await s.call('rival', 'GET', `/v1/runs/${runId}/chain`)).status).toBe(404);
    expect((await s.call('auditor', 'GET', `/v1/runs/${runId}`)).status).toBe(200);
  });
});

describe('sub-agent runs', () => {
  it("belong to their root's tenant (read from the caller their input carries) and stay out of run lists", async () => {
    model.script('parent-key', [
      {
        content: [
          say('Calling researcher for the task.'),
          useTool('researcher', { task: 'child-key: find the figure' }),
        ],
      },
      finish('parent done'),
    ]);
    model.script('child-key', [finish('child done')]);
    const agent = `delegator-${Date.now()}`;
    const parent = await runToEnd('dev', 'parent-key', [], {
      agentName: agent,
      agents: { researcher: { description: 'Finds figures' } },
    });
    const [childId] = await childRunIds(env.client, parent);
    expect(childId).toEqual(expect.any(String));
    // Child ids hold a slash (`<parent>/…`): a path segment carries it encoded.
    const child = encodeURIComponent(childId!);
    expect((await s.call('dev', 'GET', `/v1/runs/${child}`)).json).toMatchObject({
      runId: childId,
      status: 'completed',
      agentName: 'researcher',
    });
    expect((await s.call('rival', 'GET', `/v1/runs/${child}`)).status).toBe(404);
    expect((await s.call('solo', 'GET', `/v1/runs/${child}/chain`)).status).toBe(404);
    await eventually('the parent in the list', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs?agent=${agent}`);
      return json.runs?.length === 1 ? json : undefined;
    });
    // Only roots are listed: the child carries no Thoughtline attributes of its own.
    const researchers = await s.call('dev', 'GET', '/v1/runs?agent=researcher');
    expect(researchers.json.runs.map((r: { runId: string }) => r.runId)).not.toContain(childId);
  });
});

describe('branching runs (AgentInput.branching)', () => {
  it('start over HTTP; status and chain show each branch, the winner starred, and the choice; a branch is read like a sub-agent', async () => {
    // Branch tasks hold the parent's task too, so their keys come first (the first key found wins).
    model.script('Yours: "alpha"', [finish('alpha says 10')]);
    model.script('Yours: "beta"', [finish('beta says 20')]);
    model.script('branch-key', [
      {
        content: [
          say('Two ways; trying both.'),
          useTool('explore_branches', {
            approaches: [
              { label: 'alpha', instructions: 'Ask alpha.' },
              { label: 'beta', instructions: 'Ask beta.' },
            ],
          }),
        ],
      },
      // The judge's call is the run's own model's.
      { content: [say('{"winner": 2, "reason": "beta is newer"}')] },
      finish('20'),
    ]);
    const runId = await runToEnd('dev', 'branch-key', [], { branching: { maxBranches: 2 } });
    const { json: status } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    expect(
      status.subAgents.map((r: { branch: { index: number; label: string; winner?: boolean }; status: string }) => [
        r.branch.label,
        r.status,
        r.branch.winner ?? false,
      ]),
    ).toEqual([
      ['alpha', 'completed', false],
      ['beta', 'completed', true],
    ]);
    const {
      json: { chain },
    } = await s.call('dev', 'GET', `/v1/runs/${runId}/chain`);
    const choice = chain.steps.find((step: { purpose?: string }) => step.purpose === 'branch_choice');
    expect(choice.thought).toMatch(/^Going on with branch 2 “beta” \(the judge's pick, .+\): beta is newer\./);
    const branch = encodeURIComponent(status.subAgents[1].workflowId);
    expect((await s.call('dev', 'GET', `/v1/runs/${branch}`)).json).toMatchObject({ status: 'completed' });
    expect((await s.call('rival', 'GET', `/v1/runs/${branch}`)).status).toBe(404);
  });
});

describe('GET /v1/runs', () => {
  it("lists only the caller's tenant's runs, filters by agent and status, and pages with a token", async () => {
    const agent = `lister-${Date.now()}`;
    const mine = [
      await runToEnd('dev', 'list-a', [finish('a')], { agentName: agent }),
      await runToEnd('dev', 'list-b', [finish('b')], { agentName: agent }),
    ];
    const theirs = await runToEnd('rival', 'list-c', [finish('c')], { agentName: agent });
    const lonely = await runToEnd('solo', 'list-d', [finish('d')], { agentName: agent });

    const listed = await eventually('the runs in visibility', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs?agent=${agent}&status=completed`);
      return json.runs?.length === 2 ? json : undefined;
    });
    expect(listed.runs.map((r: { runId: string }) => r.runId).sort()).toEqual([...mine].sort());
    expect(listed.runs[0]).toMatchObject({
      agentName: agent,
      status: 'completed',
      tenant: 'acme',
      task: expect.stringMatching(/^list-[ab]: look things up$/),
    });
    expect(listed.runs[0].closedAt >= listed.runs[0].startedAt).toBe(true);
    // How each run went, from visibility alone: time taken, iterations, spend and the model that answered.
    expect(listed.runs[0]).toMatchObject({ iterations: 1, model: SCRIPTED_MODEL.model, tokens: expect.any(Number) });
    expect(listed.runs[0].costUsd).toBeGreaterThanOrEqual(0);
    expect(listed.runs[0].durationMs).toBe(Date.parse(listed.runs[0].closedAt) - Date.parse(listed.runs[0].startedAt));
    // The end user's view of the same rows has no spend, whether their roles or the caller asked for it.
    for (const [who, query] of [
      ['user', ''],
      ['dev', '&view=end_user'],
    ] as const) {
      const { json } = await s.call(who, 'GET', `/v1/runs?agent=${agent}&status=completed${query}`);
      expect(json.runs).toHaveLength(2);
      expect(json.runs[0]).toMatchObject({ iterations: 1, model: SCRIPTED_MODEL.model });
      expect(json.runs.some((r: Record<string, unknown>) => 'tokens' in r || 'costUsd' in r)).toBe(false);
    }
    // A view the caller's roles do not allow is refused, not narrowed.
    expect((await s.call('user', 'GET', `/v1/runs?agent=${agent}&view=auditor`)).status).toBe(403);
    // By the model that answered, iterations used, spend, origin: each narrows on the server.
    const count = async (query: string, who: Person = 'dev') =>
      (await s.call(who, 'GET', `/v1/runs?agent=${agent}${query}`)).json.runs?.length;
    expect(await count(`&model=${encodeURIComponent(SCRIPTED_MODEL.model)}`)).toBe(2);
    expect(await count('&model=claude-opus-4-1')).toBe(0);
    expect(await count('&minIterations=1')).toBe(2);
    expect(await count('&minIterations=2')).toBe(0);
    expect(await count('&minCostUsd=0')).toBe(2);
    expect(await count('&minCostUsd=1000')).toBe(0);
    expect(await count('&origin=schedule')).toBe(0);
    expect(await count('&origin=experiment')).toBe(0);
    // Spend is not the end user's to see, so not theirs to filter by.
    const bySpend = await s.call('user', 'GET', `/v1/runs?agent=${agent}&minCostUsd=0`);
    expect(bySpend.status).toBe(400);
    expect(bySpend.json.error.issues[0].path).toEqual(['minCostUsd']);

    const rival = await eventually('the rival run', async () => {
      const { json } = await s.call('rival', 'GET', `/v1/runs?agent=${agent}`);
      return json.runs?.length === 1 ? json : undefined;
    });
    expect(rival.runs[0].runId).toBe(theirs);
    const solo = await eventually('the tenantless run', async () => {
      const { json } = await s.call('solo', 'GET', `/v1/runs?agent=${agent}`);
      return json.runs?.length === 1 ? json : undefined;
    });
    expect(solo.runs[0]).toMatchObject({ runId: lonely });
    expect(solo.runs[0].tenant).toBeUndefined();

    // Asking for another tenant narrows, never widens.
    expect((await s.call('dev', 'GET', `/v1/runs?agent=${agent}&tenant=globex`)).json.runs).toEqual([]);
    expect((await s.call('dev', 'GET', `/v1/runs?agent=${agent}&status=running`)).json.runs).toEqual([]);
    expect((await s.call('dev', 'GET', `/v1/runs?agent=${agent}&startedAfter=2999-01-01T00:00:00Z`)).json.runs).toEqual(
      [],
    );

    const first = await s.call('dev', 'GET', `/v1/runs?agent=${agent}&pageSize=1`);
    expect(first.json.runs).toHaveLength(1);
    expect(first.json.nextPageToken).toEqual(expect.any(String));
    const second = await s.call(
      'dev',
      'GET',
      `/v1/runs?agent=${agent}&pageSize=1&pageToken=${first.json.nextPageToken}`,
    );
    expect(second.json.runs).toHaveLength(1);
    expect(second.json.runs[0].runId).not.toBe(first.json.runs[0].runId);
  });

  it('refuses filter values outside their allow-list before they reach a visibility query', async () => {
    const injected = await s.call(
      'dev',
      'GET',
      `/v1/runs?agent=${encodeURIComponent("x' OR ThoughtlineTenant = 'globex")}`,
    );
    expect(injected.status).toBe(400);
    expect(injected.json.error.issues[0].path).toEqual(['agent']);
    expect((await s.call('dev', 'GET', '/v1/runs?status=sleeping')).json.error.issues[0].path).toEqual(['status']);
    expect((await s.call('dev', 'GET', '/v1/runs?startedAfter=yesterday')).json.error.issues[0].path).toEqual([
      'startedAfter',
    ]);
    expect((await s.call('dev', 'GET', '/v1/runs?pageSize=1000')).json.error.issues[0].path).toEqual(['pageSize']);
    expect((await s.call('dev', 'GET', '/v1/runs?orderBy=x')).status).toBe(400);
    expect((await s.call('dev', 'GET', '/v1/runs?origin=trigger')).json.error.issues[0].path).toEqual(['origin']);
    expect((await s.call('dev', 'GET', '/v1/runs?minIterations=1%20OR%201%3D1')).json.error.issues[0].path).toEqual([
      'minIterations',
    ]);
    expect((await s.call('dev', 'GET', `/v1/runs?model=${encodeURIComponent("m' OR 'a'='a")}`)).status).toBe(400);
  });
});

describe('GET /v1/runs/{id}/chain', () => {
  it("serves every model call whole to an auditor of the run's tenant, and to nobody else", async () => {
    const runId = await runToEnd('dev', 'model-calls', [
      { content: [say('Looking up.'), useTool('lookup', { key: 'xyz' })] },
      finish('30'),
    ]);
    const calls = await s.call('auditor', 'GET', `/v1/runs/${encodeURIComponent(runId)}/model-calls`);
    expect(calls.status).toBe(200);
    expect(calls.json.modelCalls).toHaveLength(2);
    const [first, second] = calls.json.modelCalls;
    expect(first.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'model-calls: look things up' }] },
    ]);
    expect(second.request.messages).toHaveLength(3);
    expect(JSON.stringify(second.request.messages[2])).toContain('xyz');
    expect(second.reply.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'finish' })]);
    expect((await s.call('dev', 'GET', `/v1/runs/${encodeURIComponent(runId)}/model-calls`)).status).toBe(403);
    expect((await s.call('rival', 'GET', `/v1/runs/${encodeURIComponent(runId)}/model-calls`)).status).toBe(404);
  });

  it('pages the chain with afterStep and limit, and keeps to the views the roles allow', async () => {
    const turns = [1, 2, 3].map((n) => ({ content: [say(`Step ${n}.`), useTool('lookup', { key: `k${n}` })] }));
    const runId = await runToEnd('dev', 'chain-pages', [...turns, finish('done')]);
    const whole = await s.call('dev', 'GET', `/v1/runs/${runId}/chain?limit=500`);
    expect(whole.status).toBe(200);
    const all = whole.json.chain.steps.map((step: { stepNumber: number }) => step.stepNumber);
    expect(whole.json.totalSteps).toBe(all.length);
    expect(whole.json.nextAfterStep).toBeUndefined();
    expect(whole.json.chain.view.role).toBe('developer');

    const seen: number[] = [];
    let after = 0;
    for (let page = 0; page < 50; page++) {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}/chain?afterStep=${after}&limit=3`);
      expect(json.chain.steps.length).toBeLessThanOrEqual(3);
      seen.push(...json.chain.steps.map((step: { stepNumber: number }) => step.stepNumber));
      if (json.nextAfterStep === undefined) break;
      after = json.nextAfterStep;
    }
    expect(seen).toEqual(all);

    const wider = await s.call('dev', 'GET', `/v1/runs/${runId}/chain?view=auditor`);
    expect(wider.status).toBe(403);
    expect(wider.json.error.code).toBe('forbidden');
    expect((await s.call('user', 'GET', `/v1/runs/${runId}/chain?view=developer`)).status).toBe(403);
    expect((await s.call('user', 'GET', `/v1/runs/${runId}/chain`)).json.chain.view.role).toBe('end_user');
    expect((await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`)).json.chain.view.role).toBe('auditor');
    expect((await s.call('dev', 'GET', `/v1/runs/${runId}/chain?view=owner`)).status).toBe(400);
    expect((await s.call('dev', 'GET', `/v1/runs/${runId}/chain?limit=501`)).json.error.issues[0].path).toEqual([
      'limit',
    ]);
  });
});
