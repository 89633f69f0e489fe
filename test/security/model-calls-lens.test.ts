import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { HIDDEN_RESULT, HIDDEN_THINKING } from '../../src/audit/model-calls-in-lens';
import { defineTool } from '../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { writePolicy } from '../server/policy-fixture';
import { eventually, routedModel, startServerHarness, type ServerHarness } from '../server/server-harness';

/*
 * Issue 63, item 4: GET /v1/runs/{id}/model-calls reads through the auditor's lens. The policy's
 * security layer binds every view, the auditor's too: a tool result it hides is not in the
 * messages the model calls sent, and thinking it hides is not in their replies.
 */

const DOSSIER = 'CLASSIFIED-DOSSIER-ALPHA-7731';
const MUSING = 'the auditor must not read this musing';
const readDossier = defineTool({
  name: 'read_dossier',
  description: 'Reads the dossier',
  input: z.object({}),
  execute: () => ({ dossier: DOSSIER }),
});

const POLICY = `version: 1
security:
  steps:
    thinking: hidden
  tools:
    read_dossier: { result: hidden }
`;

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-model-calls-lens-'));
  const policy = await writePolicy(dir, 'policy.yaml', POLICY);
  s = await startServerHarness(env, { tools: [...testTools().tools, readDossier], model, server: { policy } });
});
afterAll(async () => {
  await s?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('GET /v1/runs/{id}/model-calls through the lens (issue 63, item 4)', () => {
  it("leaves out of the auditor's model calls the tool results and thinking the security layer hides", async () => {
    model.script('dossier-calls', [
      {
        content: [
          { type: 'thinking', thinking: `Thinking: ${MUSING}.`, signature: 'sig-1' },
          say('Reading the dossier and alpha.'),
          useTool('read_dossier', {}),
          useTool('lookup', { key: 'alpha' }),
        ],
      },
      { content: [useTool('finish', { result: 'read both' })] },
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', { task: 'dossier-calls: read', model: SCRIPTED_MODEL });
    expect(started.status).toBe(201);
    const runId = encodeURIComponent(started.json.runId as string);
    await eventually('the run to complete', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    // The chain already hides the result from the auditor: the model calls must agree.
    const chain = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain?view=auditor`);
    expect(chain.status).toBe(200);
    expect(JSON.stringify(chain.json)).not.toContain(DOSSIER);

    const calls = await s.call('auditor', 'GET', `/v1/runs/${runId}/model-calls`);
    expect(calls.status).toBe(200);
    expect(calls.json.modelCalls).toHaveLength(2);
    const text = JSON.stringify(calls.json);
    expect(text).not.toContain(DOSSIER);
    expect(text).not.toContain(MUSING);
    const second = calls.json.modelCalls[1].request.messages as Array<{ role: string; content: any[] }>;
    const results = second.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results.map((b) => b.content)).toEqual([HIDDEN_RESULT, JSON.stringify({ key: 'alpha', value: 50 })]);
    // The reply's text is the thought the chain hides: hidden with the thinking, in place; the tool calls stay.
    expect(text).not.toContain('Reading the dossier and alpha.');
    const reply = calls.json.modelCalls[0].reply.content as Array<{ type: string; thinking?: string; text?: string }>;
    expect(reply.find((b) => b.type === 'thinking')?.thinking).toBe(HIDDEN_THINKING);
    expect(reply.find((b) => b.type === 'text')?.text).toBe(HIDDEN_THINKING);
    expect(reply.filter((b) => b.type === 'tool_use')).toHaveLength(2);
  });

  it("shows no model reply text in the chain where the policy hides thinking: the reply's text is the thought", async () => {
    const THOUGHT = 'My private plan is to read the dossier quietly';
    model.script('thought-calls', [
      { content: [say(THOUGHT), useTool('lookup', { key: 'alpha' })] },
      { content: [useTool('finish', { result: 'looked it up' })] },
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', { task: 'thought-calls: look', model: SCRIPTED_MODEL });
    expect(started.status).toBe(201);
    const runId = encodeURIComponent(started.json.runId as string);
    await eventually('the run to complete', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    for (const [who, view] of [
      ['auditor', 'auditor'],
      ['dev', 'developer'],
    ] as const) {
      const chain = await s.call(who, 'GET', `/v1/runs/${runId}/chain?view=${view}`);
      expect(chain.status).toBe(200);
      const steps = chain.json.chain.steps as Array<{ type: string; model?: string; toolResult?: { result: any } }>;
      // The thought itself is left out, and so is its copy in the model call's result; the call still shows.
      expect(steps.some((step) => step.type === 'thinking')).toBe(false);
      const results = steps.filter((step) => step.type === 'tool_result' && step.model !== undefined);
      expect(results.length).toBeGreaterThanOrEqual(2);
      expect(results[0]!.toolResult!.result).toMatchObject({ text: HIDDEN_THINKING, toolCalls: [{ name: 'lookup' }] });
      expect(JSON.stringify(chain.json)).not.toContain(THOUGHT);
    }
  });
});
