import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer } from '../../src/server/create-server';
import { useTestEnv } from '../helpers/temporal-env';
import type { ServerHarness } from '../server/server-harness';
import { DOOR_INVENTORY, VIEWER_DATA_ROUTES } from './door-inventory';
import { DoorReads, VIEWS, shown } from './door-reads';
import { DOOR_POLICY, DOOR_TASK, HIDDEN_FROM, NOTE, SECRET, THOUGHT, doorModel, doorTools } from './door-run';
import {
  a2aMethods,
  cliCommands,
  doorKey,
  fastifyDoors,
  mcpDoors,
  openApiDoors,
  viewerDataRoutes,
} from './live-door-lists';
import type { McpFront } from './mcp-front';
import { DOORS_SHOWING_THE_RUN, readEveryDoor, type EveryDoorRun } from './read-every-door';

const env = useTestEnv();

let run: EveryDoorRun;
let s: ServerHarness;
let mcp: McpFront;
let reads: DoorReads;

beforeAll(async () => {
  run = await readEveryDoor(env, {
    name: 'door-inventory',
    tools: doorTools(),
    model: doorModel(),
    policy: DOOR_POLICY,
    task: DOOR_TASK,
    messageId: 'door-inventory-1',
    hidden: HIDDEN_FROM,
  });
  ({ s, mcp, reads } = run);
}, 180_000);

afterAll(async () => {
  // Every door's answers, by view, for reading a failure (DOOR_INVENTORY_DUMP=file).
  if (process.env.DOOR_INVENTORY_DUMP && reads)
    fs.writeFileSync(
      process.env.DOOR_INVENTORY_DUMP,
      JSON.stringify(Object.fromEntries(reads.doors().map((d) => [d, reads.of(d)])), null, 1),
    );
  await run?.close();
});

/** The live lists' doors the inventory does not name. */
const missingFrom = (inventory: Readonly<Record<string, unknown>>, live: readonly string[]): string[] =>
  live.filter((door) => !(door in inventory));

describe('the door inventory names every door the running server, protocols and CLI offer', () => {
  it('every /v1 operation of the OpenAPI document and every route of Fastify’s table is in the inventory', async () => {
    const openApi = await openApiDoors(s.server.url);
    const routes = fastifyDoors(s.server.app);
    expect(openApi.length).toBeGreaterThan(15);
    expect(routes).toEqual(expect.arrayContaining(openApi));
    expect(missingFrom(DOOR_INVENTORY, routes)).toEqual([]);
  });

  it('every A2A method, MCP tool and resource, and CLI command is in the inventory', async () => {
    const a2a = (await a2aMethods()).map((m) => `a2a ${m}`);
    expect(a2a).toEqual(expect.arrayContaining(['a2a GetTask', 'a2a tasks/get']));
    expect(missingFrom(DOOR_INVENTORY, a2a)).toEqual([]);
    const mcpListed = (await mcpDoors(mcp.client)).map((d) => `mcp ${d}`);
    expect(mcpListed).toEqual(expect.arrayContaining(['mcp tool get_run']));
    expect(missingFrom(DOOR_INVENTORY, mcpListed)).toEqual([]);
    expect(missingFrom(DOOR_INVENTORY, cliCommands())).toEqual([]);
  });

  it('the viewer’s data routes are the ones its scripts read, each a route of the inventory', () => {
    expect(viewerDataRoutes()).toEqual([...VIEWER_DATA_ROUTES].sort());
    const routes = Object.keys(DOOR_INVENTORY).filter((k) => k.includes(' /'));
    for (const url of VIEWER_DATA_ROUTES)
      expect(
        routes.some((k) => k.endsWith(` ${url}`)),
        url,
      ).toBe(true);
  });

  it('negative control: a route added without an inventory entry fails the check', async () => {
    const extra = await createServer({
      agents: s.h.agents,
      auth: createTokenFileAuthenticator({ file: s.tokenFile }),
      port: 0,
      extend: (app) => app.get('/v1/runs/:id/raw-answer', async () => ({})),
    });
    try {
      expect(missingFrom(DOOR_INVENTORY, fastifyDoors(extra.app))).toEqual([doorKey('GET', '/v1/runs/:id/raw-answer')]);
    } finally {
      await extra.close();
    }
    // And an entry taken out of the inventory is missed.
    const { ['a2a GetTask']: _dropped, ...without } = DOOR_INVENTORY;
    expect(
      missingFrom(
        without,
        (await a2aMethods()).map((m) => `a2a ${m}`),
      ),
    ).toEqual(['a2a GetTask']);
  });

  it('every door the inventory reads was read in each view it answers', () => {
    const readDoors = Object.entries(DOOR_INVENTORY).filter(([door, e]) => 'read' in e && door !== 'POST /a2a/:_');
    const unread = readDoors.map(([door]) => door).filter((door) => !reads.of(door) && door !== 'POST /v1/ag-ui/:_');
    expect(unread).toEqual([]);
    // The run is there to be hidden: the auditor's chain shows the sensitive value and the thinking.
    const auditorChain = reads.of('GET /v1/runs/:_/chain')!.auditor!;
    expect(auditorChain).toContain(SECRET);
    expect(auditorChain).toContain(THOUGHT);
    // And the hidden tool result was recorded (a rule hides it, nothing removed it).
    expect(reads.of('GET /v1/runs/:_/chain')!.developer).toContain('private_notes');
    expect(NOTE).not.toBe(THOUGHT);
    // The reads reached the run: each of these doors shows its answer (redacted or not) in every view.
    for (const door of DOORS_SHOWING_THE_RUN)
      for (const view of VIEWS) expect(reads.of(door)?.[view], `${door} ${view}`).toContain('account number of c-1');
    expect(reads.of('cli search control')?.developer).toContain('found by c-1');
    // A case carries the run whole: the policy hides a result from the auditor, so both doors refuse it whole.
    expect(reads.of('POST /v1/datasets/:_/cases')?.auditor).toContain('not_whole_in_view');
    expect(reads.of('POST /v1/datasets/:_/cases')?.developer).toContain('forbidden');
    // A fork carries the run whole too: the same refusal, and nothing started.
    expect(reads.of('POST /v1/runs/:_/fork')?.auditor).toContain("narrows this run in the auditor's view");
    expect(reads.of('POST /v1/runs/:_/fork')?.developer).toContain('forbidden');
    expect(reads.of('cli eval add')?.auditor).toContain("the visibility policy narrows it in the auditor's view");
  });
});

describe('each view on each door shows nothing its lens hides (one run: a sensitive value, hidden thinking, a hidden tool result)', () => {
  const readDoors = Object.entries(DOOR_INVENTORY)
    .filter(([, e]) => 'read' in e)
    .map(([door]) => door)
    .filter((door) => door !== 'POST /a2a/:_' && door !== 'POST /v1/ag-ui/:_');
  it.each(readDoors)('%s', (door) => {
    const views = reads.of(door) ?? {};
    const leaks: string[] = [];
    for (const view of VIEWS) {
      const text = views[view];
      if (text === undefined) continue;
      for (const word of shown(text, HIDDEN_FROM[view]))
        leaks.push(
          `${view} sees ${word === SECRET ? 'the sensitive value' : word === THOUGHT ? 'the hidden thinking' : 'the hidden tool result'}`,
        );
    }
    expect(leaks).toEqual([]);
  });
});
