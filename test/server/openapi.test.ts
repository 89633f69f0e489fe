import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/server/create-server';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from './light-server';

const env = useTestEnv();
let light: Awaited<ReturnType<typeof startLightServer>>;
let doc: any;

beforeAll(async () => {
  light = await startLightServer(env);
  doc = await (await fetch(`${light.server.url}/v1/openapi.json`)).json();
});
afterAll(async () => light?.close());

// ajv (fastify's own validator) reads draft 2020-12, OpenAPI 3.1's schema dialect.
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const response = (path: string, method: string, status: string) =>
  ajv.compile(doc.paths[path][method].responses[status].content['application/json'].schema);

describe('GET /v1/openapi.json', () => {
  it('lists every route of the API, the event stream and itself, with bearer security except for health and itself', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
    );
    expect(operations.map((o) => o.key).sort()).toEqual(
      [
        'POST /v1/runs',
        'GET /v1/runs',
        'GET /v1/runs/{id}',
        'GET /v1/runs/{id}/chain',
        'GET /v1/runs/{id}/model-calls',
        'GET /v1/runs/{id}/summary',
        'GET /v1/runs/{id}/timeline',
        'GET /v1/runs/{id}/compare/{other}',
        'GET /v1/search',
        'GET /v1/usage',
        'GET /v1/tenants/{tenant}/usage',
        'GET /v1/runs/{id}/events',
        'POST /v1/runs/{id}/approvals/{callId}',
        'POST /v1/runs/{id}/cancel',
        'POST /v1/runs/{id}/steer',
        'POST /v1/runs/{id}/answers',
        'POST /v1/runs/{id}/budget',
        'POST /v1/runs/{id}/fork',
        'POST /v1/runs/{id}/scores',
        'POST /v1/datasets/{name}/cases',
        'POST /v1/imports',
        'GET /v1/runs/{id}/scores',
        'GET /v1/me',
        'GET /v1/me/preferences',
        'PUT /v1/me/preferences',
        'GET /v1/health',
        'GET /v1/openapi.json',
        'GET /v1/schedules',
        'POST /v1/schedules',
        'GET /v1/schedules/{name}',
        'POST /v1/schedules/{name}/pause',
        'POST /v1/schedules/{name}/unpause',
        'DELETE /v1/schedules/{name}',
        'POST /v1/triggers/{name}',
      ].sort(),
    );
    expect(API_ROUTES).toHaveLength(32);
    const publicOnes = operations
      .filter((o) => Array.isArray(o.op.security) && o.op.security.length === 0)
      .map((o) => o.key);
    // A trigger takes no bearer token: its delivery is signed with the trigger's secret instead.
    expect(publicOnes.sort()).toEqual(['GET /v1/health', 'GET /v1/openapi.json', 'POST /v1/triggers/{name}']);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    for (const { key, op } of operations) expect(Object.keys(op.responses).length, key).toBeGreaterThan(0);
  });

  it('carries the request schemas the server parses with: they compile, accept what the server accepts and refuse what it refuses', () => {
    const body = (path: string) => ajv.compile(doc.paths[path].post.requestBody.content['application/json'].schema);
    const start = body('/v1/runs');
    expect(start({ task: 'Compare the weather' })).toBe(true);
    expect(start({ task: 'x', caller: { id: 'boss' } })).toBe(false);
    expect(start({ task: 'x', maxIterations: 0 })).toBe(false);
    expect(start({})).toBe(false);
    // An optional Idempotency-Key: a repeat answers 200 with the first run, in the 201's shape.
    const [key, ...others] = doc.paths['/v1/runs'].post.parameters;
    expect(others).toEqual([]);
    expect(key).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    const keyShape = ajv.compile(key.schema);
    expect(['order-7781:attempt.1_a', 'x'.repeat(128)].map((k) => keyShape(k))).toEqual([true, true]);
    expect(['', 'has space', 'x'.repeat(129)].map((k) => keyShape(k))).toEqual([false, false, false]);
    const links = { self: '/v1/runs/r', chain: '/v1/runs/r/chain', events: '/v1/runs/r/events' };
    expect(response('/v1/runs', 'post', '200')({ runId: 'r', links, duplicate: true })).toBe(true);
    expect(response('/v1/runs', 'post', '201')({ runId: 'r', links })).toBe(true);
    const approve = body('/v1/runs/{id}/approvals/{callId}');
    expect(approve({ approved: true, argumentsHash: 'h' })).toBe(true);
    expect(approve({ approved: 'yes', argumentsHash: 'h' })).toBe(false);
    expect(body('/v1/runs/{id}/steer')({ text: 'Use 2024 data' })).toBe(true);
    expect(body('/v1/runs/{id}/answers')({ text: 'Paris', callId: 'toolu_1' })).toBe(true);
    expect(doc.paths['/v1/runs/{id}/cancel'].post.requestBody.required).toBe(false);

    const listParams = doc.paths['/v1/runs'].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(listParams).toEqual([
      'query:status',
      'query:reason',
      'query:agent',
      'query:agentVersion',
      'query:experiment',
      'query:variant',
      'query:tenant',
      'query:model',
      'query:origin',
      'query:minIterations',
      'query:minCostUsd',
      'query:startedAfter',
      'query:startedBefore',
      'query:sort',
      'query:order',
      'query:pageSize',
      'query:pageToken',
      'query:view',
    ]);
    const chainParams = doc.paths['/v1/runs/{id}/chain'].get.parameters;
    expect(chainParams.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([
      ['id', true],
      ['view', false],
      ['afterStep', false],
      ['limit', false],
      ['types', false],
      ['tool', false],
      ['from', false],
      ['to', false],
      ['text', false],
      ['source', false],
      ['details', false],
    ]);
    const searchParams = doc.paths['/v1/search'].get.parameters.map((p: { name: string }) => p.name);
    expect(searchParams).toEqual([
      'view',
      'details',
      'agent',
      'tenant',
      'caller',
      'state',
      'reason',
      'tool',
      'text',
      'minCostUsd',
      'maxCostUsd',
      'startedAfter',
      'startedBefore',
      'includeSubAgents',
      'limit',
      'cursor',
    ]);
    expect(doc.paths['/v1/usage'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['from', 'to', 'agent']);
    expect(doc.paths['/v1/tenants/{tenant}/usage'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'tenant',
      'since',
      'until',
    ]);
  });

  it('describes the responses the server sends: a real answer validates against its schema', async () => {
    const me = await (
      await fetch(`${light.server.url}/v1/me`, { headers: { authorization: `Bearer ${light.tokens.dev}` } })
    ).json();
    expect(response('/v1/me', 'get', '200')(me)).toBe(true);
    const bad = await (
      await fetch(`${light.server.url}/v1/runs?status=nope`, {
        headers: { authorization: `Bearer ${light.tokens.dev}` },
      })
    ).json();
    expect(doc.paths['/v1/runs'].get.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const error = ajv.compile({ ...doc.components.schemas.Error });
    expect(error(bad)).toBe(true);
    expect(error({ error: { code: 'nope', message: 'x' } })).toBe(false);
  });

  it("says how a run ended: GET /v1/runs/{id}'s ending (answer, error, grounding), the list's ending without the answer, and the end event's", () => {
    const run = response('/v1/runs/{id}', 'get', '200');
    const base = {
      runId: 'r',
      agentName: 'agent',
      chainStatus: 'failed',
      stepCount: 1,
      iterations: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      pendingApprovals: [],
      subAgents: [],
      progress: { line: 'step 1', iteration: 1, maxIterations: 10, model: 'm', continuations: 0 },
    };
    const ending = {
      state: 'failed',
      terminationReason: 'error',
      label: 'error',
      tone: 'bad',
      summary: 'error: ModelAuthentication',
      error: 'ModelAuthentication: no key',
    };
    expect(run({ ...base, status: 'failed', ending })).toBe(true);
    expect(run({ ...base, status: 'failed', ending: { ...ending, terminationReason: 'no such reason' } })).toBe(false);
    const fields = doc.paths['/v1/runs/{id}'].get.responses['200'].content['application/json'].schema.properties;
    expect(Object.keys(fields.ending.properties)).toEqual(
      expect.arrayContaining(['state', 'terminationReason', 'answer', 'grounding', 'unsupportedClaims', 'error']),
    );
    expect(fields.ending.properties.grounding.enum).toEqual([
      'grounded',
      'contradicted',
      'partly_grounded',
      'unchecked',
      'unsupported',
      'ungrounded',
    ]);
    const item = doc.paths['/v1/runs'].get.responses['200'].content['application/json'].schema.properties.runs.items;
    expect(Object.keys(item.properties.ending.properties).sort()).toEqual(
      ['label', 'state', 'summary', 'terminationReason', 'tone'].sort(),
    );
    const events = doc.paths['/v1/runs/{id}/events'].get.responses['200'].content['text/event-stream'].schema;
    const end = events.oneOf.find((s: any) => s.properties.type.const === 'end');
    expect(Object.keys(end.properties)).toContain('ending');
  });
});
