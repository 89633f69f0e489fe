/**
 * `POST /v1/datasets/{name}/cases` through `serve --datasets DIR`, with tokens: an auditor makes an
 * ended run a case (the dataset and its recording on the server's disk, replayable by `eval`);
 * other roles, other tenants, a run scored bad, a second time and a server without datasets are refused.
 * Each tenant's datasets are its own (issue 78, defect 4): one name, two tenants, two files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import { loadDataset, MAX_DATASET_BYTES } from '../../src/eval/dataset';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-api-datasets-'));
const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
let s: ServerHarness;

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, status: 'shipped', token: KEY }),
});

beforeAll(async () => {
  s = await startServerHarness(env, { tools: [lookupOrder], model, server: { datasets: dir } });
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A run started through the API by `who` that called lookup_order and answered, once it has completed. */
async function completedRun(key: string, who: Person = 'dev'): Promise<string> {
  model.script(key, [
    { content: [useTool('lookup_order', { order: 'A-1' })] },
    { content: [useTool('finish', { result: `A-1 is shipped (${key})` })] },
  ]);
  const started = await s.call(who, 'POST', '/v1/runs', {
    task: `${key}: where is order A-1?`,
    model: SCRIPTED_MODEL,
    tools: ['lookup_order'],
    requireThought: false,
  });
  expect(started.status, JSON.stringify(started.json)).toBe(201);
  const runId = started.json.runId as string;
  await eventually('the run to complete', async () => {
    const { json } = await s.call(who, 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  return runId;
}

const cases = (name: string) => `/v1/datasets/${name}/cases`;

describe('POST /v1/datasets/{name}/cases', () => {
  it('an auditor makes an ended run a case: the dataset line and its recording on the server, secrets redacted', async () => {
    const runId = await completedRun('case-ok');
    const added = await s.call('auditor', 'POST', cases('support'), { runId });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect(added.json).toMatchObject({
      dataset: 'support',
      case: {
        id: `run-${runId}`,
        expect: { terminationReason: 'success', answer: { match: 'exact', value: 'A-1 is shipped (case-ok)' } },
        input: { tools: ['lookup_order'] },
        replay: `recordings/run-${runId}.jsonl`,
      },
      recording: { path: `recordings/run-${runId}.jsonl`, lines: 3 },
    });
    // The acme auditor's dataset: in acme's folder (datasets per tenant).
    const dataset = loadDataset(path.join(dir, 'tenants/acme/support.jsonl'));
    expect(dataset.cases.map((c) => c.id)).toEqual([`run-${runId}`]);
    const recording = fs.readFileSync(dataset.replays[0]!.recordingFile, 'utf8');
    expect(recording).toContain('"tool":"lookup_order"');
    expect(recording).not.toContain(KEY);

    // The same run again: 409 with the refusal's code; the file is unchanged.
    const again = await s.call('auditor', 'POST', cases('support'), { runId });
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: 'conflict', issues: [{ path: ['runId'], message: 'duplicate' }] });
    expect(loadDataset(path.join(dir, 'tenants/acme/support.jsonl')).cases).toHaveLength(1);
  });

  it("needs the auditor's view; another tenant's or an unknown run is 404; a bad name or body 400; a run scored bad 409", async () => {
    const runId = await completedRun('case-refused');
    for (const who of ['dev', 'user', 'ops'] as const) {
      const refused = await s.call(who, 'POST', cases('support'), { runId });
      expect(refused.status, who).toBe(403);
    }
    expect((await s.call('rival', 'POST', cases('support'), { runId })).status).toBe(404);
    expect((await s.call('auditor', 'POST', cases('support'), { runId: 'agent-none' })).status).toBe(404);
    expect((await s.call('auditor', 'POST', cases('.hidden'), { runId })).status).toBe(400);
    expect((await s.call('auditor', 'POST', cases('support'), { runId, extra: 1 })).status).toBe(400);
    expect((await s.call('dev', 'POST', `/v1/runs/${runId}/scores`, { name: 'accepted', value: false })).status).toBe(
      201,
    );
    const bad = await s.call('auditor', 'POST', cases('support'), { runId });
    expect(bad.status).toBe(409);
    expect(bad.json.error.issues).toEqual([{ path: ['runId'], message: 'marked_bad' }]);
    expect(bad.json.error.message).toMatch(/dev scored it accepted = 0/);
    expect(fs.existsSync(path.join(dir, `tenants/acme/recordings/run-${runId}.jsonl`))).toBe(false);
  });
});

/** Every file named `<name>.jsonl` under the datasets folder, wherever the server put it. */
function datasetFiles(name: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === `${name}.jsonl`)
    .map((f) => path.join(dir, f))
    .sort();
}

describe('datasets per tenant', () => {
  it("one dataset name is a file per tenant: B's case lands in B's only, and A's at its cap never stops B", async () => {
    const ours = await completedRun('acme-case');
    const theirs = await completedRun('globex-case', 'rival');
    expect((await s.call('auditor', 'POST', cases('shared'), { runId: ours })).status).toBe(201);
    const [acme] = datasetFiles('shared');
    // Tenant acme's dataset filled to its cap with a comment (the loader skips it, the limit counts it).
    const size = fs.statSync(acme!).size;
    fs.appendFileSync(acme!, `#${'x'.repeat(MAX_DATASET_BYTES - size - 100)}\n`);

    const added = await s.call('rival', 'POST', cases('shared'), { runId: theirs });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect(datasetFiles('shared')).toEqual([
      path.join(dir, 'tenants/acme/shared.jsonl'),
      path.join(dir, 'tenants/globex/shared.jsonl'),
    ]);
    expect(loadDataset(path.join(dir, 'tenants/acme/shared.jsonl')).cases.map((c) => c.id)).toEqual([`run-${ours}`]);
    const globex = loadDataset(path.join(dir, 'tenants/globex/shared.jsonl'));
    expect(globex.cases.map((c) => c.id)).toEqual([`run-${theirs}`]);
    expect(fs.existsSync(globex.replays[0]!.recordingFile)).toBe(true);
    expect(globex.replays[0]!.recordingFile.startsWith(path.join(dir, 'tenants/globex/recordings/'))).toBe(true);

    // Acme's own auditor is still held at acme's cap.
    const more = await completedRun('more-acme');
    const full = await s.call('auditor', 'POST', cases('shared'), { runId: more });
    expect(full.status).toBe(413);
    expect(full.json.error.issues).toEqual([{ path: ['runId'], message: 'too_large' }]);
  });
});
