import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { ModelRegistry } from '../../src/domain';
import {
  createFileTools,
  createHttpTool,
  createLlmTool,
  createPostgresQueryTool,
  createSqliteQueryTool,
} from '../../src/tools';
import { toolResultOf } from '../helpers/chain-helpers';
import { waitForPending } from '../helpers/approval-helpers';
import { REVOKE_LOGICAL_EMIT, startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { openSqlite } from '../helpers/sqlite-file';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { sampleFolder, startEverythingHttp, stdioConfig, type HttpServer } from '../mcp/mcp-test-servers';
import { localServer } from './http/local-server';

const env = useTestEnv();
const alice = { id: 'alice', roles: ['ops'] };

/**
 * The whole kit in one offline run: every built-in family and both reference MCP servers
 * (stdio and Streamable HTTP), with the writes held for approval, against real servers and
 * databases.
 */
describe('one run with every kind of tool', () => {
  const dir = sampleFolder();
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-every-'));
  let pg: TestPostgres;
  let web: HttpServer;
  let site: Awaited<ReturnType<typeof localServer>>;
  const sqliteFile = path.join(workspace, 'shop.db');

  beforeAll(async () => {
    fs.writeFileSync(path.join(workspace, 'brief.txt'), 'Ship on Tuesday.\n');
    const db = openSqlite(sqliteFile);
    db.exec(
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders (total) VALUES (12.5), (30);',
    );
    db.close();
    pg = await startTestPostgres();
    await pg.query(
      "CREATE TABLE stock (sku text, qty int); INSERT INTO stock VALUES ('a', 3), ('b', 0); CREATE ROLE reader LOGIN; GRANT SELECT ON stock TO reader;",
    );
    await pg.query(REVOKE_LOGICAL_EMIT);
    web = await startEverythingHttp();
    site = await localServer((_req, res) => res.end('status: green'));
  }, 600_000);
  afterAll(async () => {
    await pg?.stop();
    await web?.stop();
    await site?.close();
  });

  it('calls files, SQLite, PostgreSQL, HTTP, a model and both MCP servers, and holds the writes for a person', async () => {
    const answering = createScriptedModel([
      { content: [say('Tuesday works.')], usage: { inputTokens: 12, outputTokens: 3 }, costUsd: 0.001 },
    ]);
    const tools = [
      ...createFileTools({ root: workspace }),
      createSqliteQueryTool({ file: sqliteFile }),
      createPostgresQueryTool({ name: 'stock_query', connection: pg.urlFor('reader') }),
      createHttpTool({ allowHosts: ['127.0.0.1'], allowPorts: [site.port], allowAddresses: ['127.0.0.1'] }),
      createLlmTool({
        registry: ModelRegistry.parse({ models: { fast: { provider: 'openai-compatible', model: 'fast-1' } } }),
        providers: { 'openai-compatible': answering as ModelProvider },
      }),
    ];
    const mcp = stdioConfig(dir);
    mcp.mcpServers['web'] = { url: web.url };
    const agent = createScriptedModel([
      {
        content: [
          useTool('files_read', { path: 'brief.txt' }, 'c_file'),
          useTool('sql_query', { sql: 'SELECT sum(total) AS total FROM orders' }, 'c_sqlite'),
          useTool('stock_query', { sql: 'SELECT sku FROM stock WHERE qty = 0' }, 'c_pg'),
          useTool('http_fetch', { url: site.url('/status') }, 'c_http'),
          useTool('ask_model', { model: 'fast', prompt: 'Is Tuesday a good day to ship?' }, 'c_llm'),
          useTool('fs__read_text_file', { path: `${dir}/notes.txt` }, 'c_mcp_stdio'),
          useTool('web__get-sum', { a: 12.5, b: 30 }, 'c_mcp_http'),
        ],
      },
      {
        content: [
          useTool('files_write', { path: 'plan.txt', content: 'Ship Tuesday; restock a.' }, 'c_write'),
          useTool('fs__write_file', { path: `${dir}/plan.md`, content: '# Plan' }, 'c_mcp_write'),
        ],
      },
      { content: [say('Planned.')] },
    ]);
    const h = await createHarness(env, { tools, models: { scripted: agent }, mcp });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        model: SCRIPTED_MODEL,
        task: 'Plan the shipment',
        tools: [...tools.map((t) => t.name), 'fs__read_text_file', 'fs__write_file', 'web__get-sum'],
      });
      const pending = await waitForPending(h.agents, handle.workflowId, 2);
      expect(pending.map((p) => p.toolName).sort()).toEqual(['files_write', 'fs__write_file']);
      expect(fs.existsSync(path.join(workspace, 'plan.txt'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'plan.md'))).toBe(false);
      for (const p of pending)
        await h.agents.decide(handle.workflowId, { callId: p.callId, approved: true, by: alice });
      return handle.result();
    });
    agent.verify();
    answering.verify();
    expect(result.terminationReason).toBe('success');
    const steps = result.chain.steps;
    expect(toolResultOf(steps, 'c_file')).toMatchObject({ success: true, result: { content: 'Ship on Tuesday.\n' } });
    expect(toolResultOf(steps, 'c_sqlite')).toMatchObject({
      success: true,
      result: { rows: [expect.objectContaining({ total: 42.5 })] },
    });
    expect(JSON.stringify(toolResultOf(steps, 'c_pg'))).toContain('"b"');
    expect(toolResultOf(steps, 'c_http')).toMatchObject({
      success: true,
      result: { status: 200, body: 'status: green' },
    });
    expect(toolResultOf(steps, 'c_llm')).toMatchObject({ success: true, result: 'Tuesday works.' });
    expect(toolResultOf(steps, 'c_mcp_stdio')).toMatchObject({
      success: true,
      result: expect.objectContaining({ text: 'The launch is on Tuesday.\n' }),
    });
    expect(toolResultOf(steps, 'c_mcp_http')).toMatchObject({
      success: true,
      result: 'The sum of 12.5 and 30 is 42.5.',
    });
    expect(fs.readFileSync(path.join(workspace, 'plan.txt'), 'utf8')).toBe('Ship Tuesday; restock a.');
    expect(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8')).toBe('# Plan');
    // The sub-call's spend is the run's.
    expect(result.usage.inputTokens).toBeGreaterThanOrEqual(12);
    expect(result.costUsd).toBeGreaterThanOrEqual(0.001);
  }, 300_000);
});
