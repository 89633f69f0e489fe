import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { COMMANDS } from '../../src/cli/commands';
import { withSubcommands } from '../../src/cli/spec/command-line';
import { loadA2aSdk } from '../../src/server/a2a/a2a-sdk';
import { VIEWER_DIR } from '../../src/server/routes/viewer-route';

/*
 * The doors as the running components list them, to hold the inventory against: a door these
 * lists name that the inventory does not is a failure (door-inventory.test.ts).
 */

/** `METHOD /path` with Fastify's `:param` form, whatever the source spells. */
export const doorKey = (method: string, url: string): string =>
  `${method.toUpperCase()} ${url.replace(/\{([^}]+)\}/g, ':$1').replace(/:[A-Za-z_]+/g, ':_')}`;

/** Every operation of the OpenAPI document the server serves. */
export async function openApiDoors(baseUrl: string): Promise<string[]> {
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([url, ops]) => Object.keys(ops).map((m) => doorKey(m, url)));
}

/**
 * Every route of the app, read from Fastify's own route table (`printRoutes` without common
 * prefixes: a tree whose lines nest by four columns; a line's path is its parent's plus its own).
 * HEAD routes Fastify adds to each GET are left out.
 */
export function fastifyDoors(app: FastifyInstance): string[] {
  const doors: string[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([\s│├└─]*?)(?:[├└]── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const full = (depth > 0 ? parents[depth - 1]! : '') + match[2]!;
    parents[depth] = full === '/' ? '' : full;
    const url = full === '' ? '/' : full.startsWith('/') ? full : `/${full}`;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') doors.push(doorKey(method, url));
  }
  return doors;
}

/**
 * The A2A JSON-RPC methods the server answers: those the SDK's transports (v1.0 and v0.3, the
 * classes `registerA2aRoutes` hands requests to) dispatch to the request handler.
 */
export async function a2aMethods(): Promise<string[]> {
  const sdk = await loadA2aSdk();
  const sources = [
    sdk.server.JsonRpcTransportHandler.prototype.handle.toString(),
    sdk.legacy.LegacyJsonRpcTransportHandler.prototype.handle.toString(),
  ];
  const names = new Set<string>();
  for (const source of sources)
    for (const m of source.matchAll(/(?:case |method === )"([A-Za-z/]+)"/g)) names.add(m[1]!);
  return [...names].sort();
}

/** The MCP server's tools and resource templates (and resources), as its own client lists them. */
export async function mcpDoors(client: Client): Promise<string[]> {
  const tools = (await client.listTools()).tools.map((t) => `tool ${t.name}`);
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => `resource ${t.uriTemplate}`);
  const resources = (await client.listResources()).resources.map((r) => `resource ${r.uri}`);
  return [...tools, ...templates, ...resources];
}

/** Every CLI command, and the commands under them (`cli eval add`). */
export const cliCommands = (): string[] => withSubcommands(COMMANDS).map((c) => `cli ${c.name}`);

/**
 * The /v1 routes the browser viewer reads, from its own scripts: each `/v1/…` literal and each
 * `${base}/…` of the run page (base is `/v1/runs/<id>`), interpolations as a parameter.
 */
export function viewerDataRoutes(dir: string = VIEWER_DIR): string[] {
  const runPage = fs.readFileSync(path.join(dir, 'run-page.js'), 'utf8');
  const base = /const base = `(\/v1\/[^`]*)`/.exec(runPage)?.[1];
  if (!base) throw new Error('viewer/run-page.js no longer defines its base; update viewerDataRoutes');
  const found = new Set<string>();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(dir, name), 'utf8');
    const literals = [...source.matchAll(/['`](\/v1\/[^'`?]*)/g)].map((m) => m[1]!);
    // The run page hands `base` to the modules it builds (controls, approvals, tools).
    const fromBase = [...source.matchAll(/`\$\{base\}(\/[a-z-]+)/g)].map((m) => base + m[1]!);
    for (const url of [...literals, ...fromBase]) found.add(url.replace(/\$\{[^}]*\}/g, ':_').replace(/\/$/, ''));
  }
  return [...found].sort();
}
