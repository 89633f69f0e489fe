// The workflow app: a plain node:http server exposing the three routes the SDK's builder
// generated (flow, step, webhook under /.well-known/workflow/v1), as the framework integration
// guide wires them, plus one app route that starts a run (as the Express guide's route does).
// The local world's in-memory queue delivers every workflow and step message to these routes
// over HTTP; WORKFLOW_LOCAL_DATA_DIR says where it keeps its JSON files.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getWorld } from 'workflow/runtime';
import { start } from 'workflow/api';

/** The node request as a web Request, which the generated handlers take. */
async function toRequest(req, origin) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url, origin), {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

async function send(res, response) {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

/**
 * Starts the app on 127.0.0.1:port (0 picks one), points the local world's queue at it, and
 * starts the world, which re-enqueues the runs it finds pending or running in its data
 * directory (the local world's recovery after a restart).
 * @param {{ routes: string, workflowId: string, port?: number }} options
 */
export async function startApp({ routes, workflowId, port = 0 }) {
  // The builder's default output is CommonJS (flow.js, step.js) with an ESM webhook.js.
  const load = async (name) => {
    const mod = await import(pathToFileURL(path.join(routes, name)).href);
    return mod.POST ? mod : mod.default;
  };
  const [flow, step, webhook] = await Promise.all([load('flow.js'), load('step.js'), load('webhook.js')]);
  let origin;
  const server = http.createServer(async (req, res) => {
    try {
      const { pathname } = new URL(req.url, origin);
      if (req.method === 'POST' && pathname === '/.well-known/workflow/v1/flow')
        return await send(res, await flow.POST(await toRequest(req, origin)));
      if (req.method === 'POST' && pathname === '/.well-known/workflow/v1/step')
        return await send(res, await step.POST(await toRequest(req, origin)));
      if (pathname.startsWith('/.well-known/workflow/v1/webhook/') && webhook[req.method])
        return await send(res, await webhook[req.method](await toRequest(req, origin)));
      if (req.method === 'POST' && pathname === '/runs') {
        const settings = await (await toRequest(req, origin)).json();
        const run = await start({ workflowId }, [settings]);
        return await send(res, Response.json({ runId: run.runId }));
      }
      await send(res, new Response('not found', { status: 404 }));
    } catch (err) {
      await send(res, new Response(String(err?.stack ?? err), { status: 500 }));
    }
  });
  // Longer than the queue's 30 s keep-alive, so the queue never reuses a socket the server closed.
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = server.address().port;
  origin = `http://127.0.0.1:${bound}`;
  process.env.WORKFLOW_LOCAL_BASE_URL = origin;
  const world = getWorld();
  await world.start?.();
  return {
    port: bound,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
      await world.close?.();
    },
  };
}
