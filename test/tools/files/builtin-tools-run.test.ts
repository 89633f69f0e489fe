import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { createFileTools } from '../../../src/tools/builtin/files';
import { createHttpTool } from '../../../src/tools/builtin/http';
import { toolResultOf } from '../../helpers/chain-helpers';
import { waitForPending } from '../../helpers/approval-helpers';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { localServer } from '../http/local-server';
import { scratchTree } from './file-tools-helpers';

const env = useTestEnv();
const alice = { id: 'alice', roles: ['ops'] };

let server: Awaited<ReturnType<typeof localServer>>;
beforeAll(async () => {
  server = await localServer((_req, res) => {
    res.setHeader('set-cookie', 'session=do-not-leak');
    res.end('remote text');
  });
});
afterAll(() => server.close());

/** One run on a real worker: the built-in tools as the workflow calls them, approvals included. */
describe('built-in file and http tools in a run', () => {
  it(
    'reads freely, refuses escapes and the metadata address, and writes only after approval',
    { timeout: 120_000 },
    async () => {
      const tree = scratchTree();
      try {
        const http = createHttpTool({
          allowHosts: ['127.0.0.1', '169.254.169.254'],
          allowPorts: [80, server.port],
          allowAddresses: ['127.0.0.1'],
        });
        const model = createScriptedModel([
          {
            content: [
              useTool('files_read', { path: 'a.txt' }, 'call_read'),
              useTool('files_read', { path: '../outside/secret.txt' }, 'call_escape'),
              useTool('http_fetch', { url: server.url('/page') }, 'call_fetch'),
              useTool('http_fetch', { url: 'http://169.254.169.254/latest/meta-data/' }, 'call_metadata'),
            ],
          },
          { content: [useTool('files_write', { path: 'notes.txt', content: 'written' }, 'call_write')] },
          { content: [say('done')] },
        ]);
        const h = await createHarness(env, {
          tools: [...createFileTools({ root: tree.root }), http],
          models: { scripted: model },
        });
        const result = await h.worker.runUntil(async () => {
          const handle = await h.agents.start(scriptedInput('use the built-in tools'));
          const [pending] = await waitForPending(h.agents, handle.workflowId);
          expect(pending).toMatchObject({ callId: 'call_write', toolName: 'files_write' });
          expect(fs.existsSync(path.join(tree.root, 'notes.txt'))).toBe(false);
          await h.agents.decide(handle.workflowId, { callId: 'call_write', approved: true, by: alice });
          return handle.result();
        });
        model.verify();
        const steps = result.chain.steps;
        expect(toolResultOf(steps, 'call_read')).toMatchObject({
          success: true,
          result: { content: 'alpha\nneedle one\n' },
        });
        expect(toolResultOf(steps, 'call_escape')).toMatchObject({
          success: false,
          error: expect.stringContaining('ToolRefused: The path contains ".."'),
        });
        expect(toolResultOf(steps, 'call_fetch')).toMatchObject({
          success: true,
          result: { status: 200, body: 'remote text' },
        });
        expect(toolResultOf(steps, 'call_metadata')).toMatchObject({
          success: false,
          error: expect.stringContaining('169.254.169.254 is a linkLocal address'),
        });
        expect(toolResultOf(steps, 'call_write')).toMatchObject({
          success: true,
          result: { path: 'notes.txt', created: true },
        });
        expect(fs.readFileSync(path.join(tree.root, 'notes.txt'), 'utf8')).toBe('written');
        expect(JSON.stringify(result.chain)).not.toContain('do-not-leak');
      } finally {
        tree.cleanup();
      }
    },
  );
});
