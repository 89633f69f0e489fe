// A real MCP server over Streamable HTTP, written on the SDK (1.x, protocol 2025-11-25), that answers
// tool calls with tasks: the fixture for runs that park on an MCP task. Its tasks outlive sessions
// (one store for every session, as a server that keeps tasks in a database would), so a worker that
// restarts and dials a new session polls the same task. `node task-server.mjs` with PORT; it prints
// `listening <port>` once it listens.
//
// Tools: `slow_report` (tasks optional) finishes after `ms` real milliseconds, or, with `ms: -1`,
// when the test POSTs /release; `ask_report` (tasks required) asks for an audience (elicitation in
// the task, delivered through tasks/result) and reports for it.
// GET /stats says what the server saw. With CLIENT_ID and CLIENT_SECRET set, /mcp wants a bearer
// token that POST /token issued for those credentials (OAuth client credentials); with STATIC_TOKEN
// set, it takes that token too.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const port = Number(process.env.PORT ?? 0);
const { CLIENT_ID, CLIENT_SECRET, STATIC_TOKEN } = process.env;
const store = new InMemoryTaskStore();
// Every session sees every task: the session id is dropped on the way in.
const shared = new Proxy(store, {
  get(target, key) {
    const value = Reflect.get(target, key);
    if (typeof value !== 'function') return value;
    return (...args) => {
      if (key === 'createTask') return value.call(target, args[0], args[1], args[2], undefined);
      if (['getTask', 'getTaskResult', 'listTasks'].includes(key)) return value.call(target, args[0], undefined);
      if (key === 'storeTaskResult') return value.call(target, args[0], args[1], args[2], undefined);
      if (key === 'updateTaskStatus') return value.call(target, args[0], args[1], args[2], undefined);
      return value.apply(target, args);
    };
  },
});
const queue = new InMemoryTaskMessageQueue();
const stats = {
  created: 0,
  gets: 0,
  cancels: 0,
  sessions: 0,
  released: [],
  cancelled: [],
  authorized: 0,
  refused: 0,
  tokens: 0,
};
const waiting = new Map();
const tokens = new Set();

function makeServer() {
  const server = new McpServer(
    { name: 'task-server', version: '1.0.0' },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: shared,
      taskMessageQueue: queue,
    },
  );
  server.experimental.tasks.registerToolTask(
    'slow_report',
    {
      description: 'Writes a report on a topic; takes a while.',
      inputSchema: { topic: z.string(), ms: z.number().int(), pad: z.number().int().max(100_000).optional() },
      execution: { taskSupport: 'optional' },
      annotations: { readOnlyHint: true },
    },
    {
      createTask: async ({ topic, ms, pad }, extra) => {
        stats.created++;
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 500 });
        const finish = () =>
          shared
            .storeTaskResult(task.taskId, 'completed', {
              content: [{ type: 'text', text: `Report on ${topic}: all good.${pad ? ` ${'x'.repeat(pad)}` : ''}` }],
            })
            .catch(() => undefined);
        if (ms < 0) waiting.set(task.taskId, finish);
        else setTimeout(finish, ms);
        return { task };
      },
      getTask: async (_args, extra) => shared.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => shared.getTaskResult(extra.taskId),
    },
  );
  server.experimental.tasks.registerToolTask(
    'broken_report',
    {
      description: 'Fails: its task ends failed.',
      inputSchema: { topic: z.string() },
      execution: { taskSupport: 'required' },
      annotations: { readOnlyHint: true },
    },
    {
      createTask: async ({ topic }, extra) => {
        stats.created++;
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 100 });
        setTimeout(
          () =>
            shared
              .storeTaskResult(task.taskId, 'failed', {
                content: [{ type: 'text', text: `The printer caught fire printing ${topic}.` }],
                isError: true,
              })
              .catch(() => undefined),
          50,
        );
        return { task };
      },
      getTask: async (_args, extra) => shared.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => shared.getTaskResult(extra.taskId),
    },
  );
  server.experimental.tasks.registerToolTask(
    'ask_report',
    {
      description: 'Writes a report for an audience it asks for.',
      inputSchema: { topic: z.string() },
      execution: { taskSupport: 'required' },
      annotations: { readOnlyHint: true },
    },
    {
      createTask: async ({ topic }, extra) => {
        stats.created++;
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 200 });
        void (async () => {
          const answer = await extra.sendRequest(
            {
              method: 'elicitation/create',
              params: {
                message: `Who is the report on ${topic} for?`,
                requestedSchema: {
                  type: 'object',
                  properties: { audience: { type: 'string' } },
                  required: ['audience'],
                },
              },
            },
            ElicitResultSchema,
            { relatedTask: { taskId: task.taskId } },
          );
          await shared.updateTaskStatus(task.taskId, 'working');
          const text =
            answer.action === 'accept'
              ? `Report on ${topic} for ${answer.content.audience}.`
              : `No report: ${answer.action}.`;
          await shared.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text }] });
        })().catch(() => undefined);
        return { task };
      },
      getTask: async (_args, extra) => shared.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => shared.getTaskResult(extra.taskId),
    },
  );
  return server;
}

const sessions = new Map();

function authorized(req) {
  if (!CLIENT_ID && !STATIC_TOKEN) return true;
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return token !== undefined && (tokens.has(token) || token === STATIC_TOKEN);
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const http = createServer(async (req, res) => {
  try {
    if (req.url === '/stats') return res.end(JSON.stringify(stats));
    if (req.url === '/release' && req.method === 'POST') {
      for (const [id, finish] of waiting) {
        stats.released.push(id);
        await finish();
      }
      waiting.clear();
      return res.end('{}');
    }
    if (req.url === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      if (
        form.get('grant_type') !== 'client_credentials' ||
        !CLIENT_ID ||
        id !== CLIENT_ID ||
        secret !== CLIENT_SECRET
      ) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'invalid_client' }));
      }
      const token = randomUUID();
      tokens.add(token);
      stats.tokens++;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
    }
    if (!authorized(req)) {
      stats.refused++;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      return res.end(JSON.stringify({ error: 'unauthorized' }));
    }
    stats.authorized++;
    const id = req.headers['mcp-session-id'];
    const text = req.method === 'POST' ? await body(req) : undefined;
    const parsed = text ? JSON.parse(text) : undefined;
    if (parsed?.method === 'tasks/get') stats.gets++;
    if (parsed?.method === 'tasks/cancel') {
      stats.cancels++;
      stats.cancelled.push(parsed.params.taskId);
    }
    if (id && sessions.has(id)) return sessions.get(id).handleRequest(req, res, parsed);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        stats.sessions++;
        sessions.set(sid, transport);
      },
    });
    await makeServer().connect(transport);
    await transport.handleRequest(req, res, parsed);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(err));
  }
});
http.listen(port, '127.0.0.1', () => console.log(`listening ${http.address().port}`));
