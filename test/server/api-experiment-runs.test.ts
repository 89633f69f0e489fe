import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { assignVariant } from '../../src/domain/agents/agent-experiment';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const name = `tone-${randomUUID().slice(0, 8)}`;
const support = defineAgent({
  id: 'support',
  description: 'Answers support tickets.',
  version: '3.0.0',
  systemPrompt: 'You answer support tickets.',
  tools: ['lookup'],
  experiment: {
    name,
    assignBy: 'caller',
    variants: [
      { name: 'plain', weight: 1 },
      { name: 'warm', weight: 1, systemPrompt: 'You answer support tickets warmly.' },
    ],
  },
});
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model, agents: [support] });
});
afterAll(async () => s?.close());

describe('GET /v1/runs of a live experiment', () => {
  it('assigns the caller of the token its variant, shows it on the run and the chain, and lists by experiment and variant', async () => {
    model.script('experiment', [{ content: [useTool('finish', { result: 'done' })] }]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'experiment: help me',
      agent: 'support',
      model: SCRIPTED_MODEL,
    });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const runId = started.json.runId as string;
    const ended = await eventually(`${runId} to end`, async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    const { json: chain } = await s.call('dev', 'GET', `/v1/runs/${runId}/chain`);
    const caller = chain.chain.caller?.id as string;
    expect(caller).toBeTruthy();
    const variant = assignVariant(support.experiment!, caller).name;
    expect(chain.chain.agent.experiment).toEqual({ name, variant, by: 'caller' });
    expect(ended.experiment).toEqual({ name, variant });

    const listed = await eventually('the run listed by experiment and variant', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs?experiment=${name}&variant=${variant}`);
      return json.runs?.find((r: { runId: string }) => r.runId === runId);
    });
    expect(listed).toMatchObject({ agentName: 'support', experiment: { name, variant } });
    const other = variant === 'warm' ? 'plain' : 'warm';
    const none = await s.call('dev', 'GET', `/v1/runs?experiment=${name}&variant=${other}`);
    expect(none.json.runs.map((r: { runId: string }) => r.runId)).not.toContain(runId);
    const bad = await s.call('dev', 'GET', `/v1/runs?experiment=${encodeURIComponent("x' OR 1=1")}`);
    expect(bad.status).toBe(400);
  });
});
