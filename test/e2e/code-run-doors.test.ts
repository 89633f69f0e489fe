import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { createCodeRunTool } from '../../src/tools/builtin/code';
import { waitForPending } from '../helpers/approval-helpers';
import { toolResultOf } from '../helpers/chain-helpers';
import { cliEnv, runCli } from '../helpers/cli-process';
import { scriptedInput, SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type ServerHarness } from '../server/server-harness';
import { scratchTree } from '../tools/files/file-tools-helpers';

const env = useTestEnv();
const model = routedModel();
let tree: ReturnType<typeof scratchTree>;
let s: ServerHarness;

beforeAll(async () => {
  tree = scratchTree();
  s = await startServerHarness(env, { tools: [createCodeRunTool({ root: tree.root })], model });
});
afterAll(async () => {
  await s?.close();
  tree?.cleanup();
});

const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });
const code = (file: string) =>
  `const words = files.read("a.txt").split(/\\s+/).filter(Boolean); files.write("${file}", String(words.length)); console.log("counted"); words.length`;

/** code_run through the doors: the API and the CLI see the execution wait, decide it, and read its result. */
describe('code_run through the API and the CLI', () => {
  it(
    'POST /v1/runs, the pending execution in GET, approved by POST, its result in the chain',
    { timeout: 120_000 },
    async () => {
      model.script('api-code', [
        {
          content: [
            // A run started through the API needs a thought before each tool call.
            say('Counting the words of a.txt with code.'),
            useTool('code_run', { language: 'javascript', code: code('api.txt'), files: ['a.txt'] }, 'toolu_api'),
          ],
        },
        finish('counted'),
      ]);
      const started = await s.call('dev', 'POST', '/v1/runs', { task: 'api-code: count', model: SCRIPTED_MODEL });
      expect(started.status).toBe(201);
      const runId = started.json.runId as string;
      const record = await eventually('the pending execution', async () => {
        const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
        return json.pendingApprovals?.[0];
      });
      expect(record).toMatchObject({
        callId: 'toolu_api',
        toolName: 'code_run',
        arguments: { language: 'javascript' },
      });
      expect(fs.existsSync(path.join(tree.root, 'api.txt'))).toBe(false);
      const decided = await s.call('dev', 'POST', `/v1/runs/${runId}/approvals/toolu_api`, {
        approved: true,
        argumentsHash: record.argumentsHash,
      });
      expect(decided.status).toBe(200);
      // Each probe queries the run: in the slow stage's load one query was answered after the
      // server had given up on it (core: "query task not found"), and 20 s went by. The run ending
      // is what counts here; the test's own timeout still bounds it.
      await eventually(
        'the run to end',
        async () => {
          const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
          return json.status !== 'running' ? json : undefined;
        },
        60_000,
      );
      const chain = await s.call('dev', 'GET', `/v1/runs/${runId}/chain`);
      expect(toolResultOf(chain.json.chain.steps, 'toolu_api')).toMatchObject({
        success: true,
        result: { ok: true, stdout: 'counted\n', value: '3', filesWritten: [{ path: 'api.txt' }] },
      });
      expect(fs.readFileSync(path.join(tree.root, 'api.txt'), 'utf8')).toBe('3');
    },
  );

  it(
    'thoughtline status shows the code waiting, approve runs it, chain shows what it printed',
    { timeout: 120_000 },
    async () => {
      model.script('cli-code', [
        {
          content: [
            useTool('code_run', { language: 'javascript', code: code('cli.txt'), files: ['a.txt'] }, 'toolu_cli'),
          ],
        },
        finish('counted'),
      ]);
      const handle = await s.h.agents.start(scriptedInput('cli-code: count'));
      await waitForPending(s.h.agents, handle.workflowId);
      const asNobody = cliEnv({ THOUGHTLINE_USER: '', THOUGHTLINE_ROLES: '' });
      const status = await runCli(['status', handle.workflowId], asNobody);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('toolu_cli  code_run');
      expect(status.stdout).toContain('files.read(\\"a.txt\\")');
      const approved = await runCli(['approve', handle.workflowId, 'toolu_cli', '--yes', '--as', 'alice'], asNobody);
      expect(approved.code).toBe(0);
      await handle.result();
      const chain = await runCli(['chain', handle.workflowId, '--json'], asNobody);
      expect(chain.code).toBe(0);
      expect(toolResultOf(JSON.parse(chain.stdout).steps, 'toolu_cli')).toMatchObject({
        success: true,
        result: { stdout: 'counted\n', value: '3' },
      });
      expect(fs.readFileSync(path.join(tree.root, 'cli.txt'), 'utf8')).toBe('3');
    },
  );
});
