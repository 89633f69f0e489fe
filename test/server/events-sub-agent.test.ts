import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { resolveViewLens, type ViewLens } from '../../src/domain/visibility';
import type { ViewerRole } from '../../src/domain';
import { createMemoryBus } from '../../src/events/memory-bus';
import { registerEventsRoute, type EventsRoute, type EventsRouteOptions } from '../../src/server/events/events-route';
import { pollFor } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { HeldScripts, lookupTurns, openEvents, TENANT_CALLER, testContext, type SseMessage } from './events-harness';

/*
 * A running sub-agent's steps in its parent's event stream (issue 65, seed 002 #89): while the
 * child runs, the parent's stream carries the child's steps as `sub_agent_step` events, each
 * read through the same gate as the child's own stream (the caller, their view and their lens
 * for the child's run); a caller whose lens hides sub-agents' chains gets none of them.
 */

const env = useTestEnv();
const book = new HeldScripts();
let h: AgentHarness;
let running: Promise<void>;
/** Ulla's (user-token's) lens: her policy hides sub-agents' own chains. */
const hidingSubChains = (view: ViewerRole): ViewLens => ({
  ...resolveViewLens(undefined, { view }),
  subChains: 'hidden',
});
let url: string;
const servers: Array<() => Promise<void>> = [];

/** A real Fastify app with only the events route, whose context knows each run's parent (as the server's own access check does). */
async function startServer(options: EventsRouteOptions = {}): Promise<{ url: string; route: EventsRoute }> {
  const app = Fastify();
  const base = testContext(h.agents, createMemoryBus());
  const route = registerEventsRoute(
    app,
    {
      ...base,
      async accessRun(identity, workflowId) {
        const access = await base.accessRun(identity, workflowId);
        const parent = (await h.agents.getHandle(workflowId).describe()).parentExecution?.workflowId;
        return { ...access, ...(parent ? { parentRunId: parent } : {}) };
      },
      lensFor: async (identity, view) => (identity.id === 'ulla' ? hidingSubChains(view) : undefined),
    },
    { safetyPollMs: 300, ...options },
  );
  servers.push(() => app.close());
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), route };
}

beforeAll(async () => {
  h = await createHarness(env, { tools: testTools().tools, models: { scripted: book.provider } });
  running = h.worker.run();
  url = (await startServer()).url;
});

afterAll(async () => {
  for (const close of servers) await close();
  h?.worker.shutdown();
  await running;
});

const childSteps = (messages: readonly SseMessage[]) => messages.filter((m) => m.event === 'sub_agent_step');

/** A parent that delegates one task to `researcher`, whose script makes `free` model calls and then waits. */
async function startDelegating(name: string, free: number) {
  const childTask = `Look three keys up [${name}-child]`;
  const child = book.script(childTask, lookupTurns(3), free);
  book.script(name, [
    { content: [say('Delegating the lookups.'), useTool('researcher', { task: childTask }, `call_${name}`)] },
    { content: [say('Final answer: the researcher looked them up.')] },
  ]);
  const handle = await h.agents.start({
    task: name,
    model: SCRIPTED_MODEL,
    caller: TENANT_CALLER,
    maxIterations: 10,
    agents: { researcher: { description: 'Looks keys up', model: SCRIPTED_MODEL, tools: ['lookup'] } },
  });
  await pollFor('the child to wait on its model', () => (child.waiting() > 0 ? true : undefined), 30_000);
  const status = await h.agents.status(handle.workflowId, 'developer');
  const childId = status.subAgents[0]!.workflowId;
  return { id: handle.workflowId, childId, release: child.release };
}

describe("a running sub-agent's steps in the parent's events stream", () => {
  it('carries the child’s steps, tagged with its id, while it runs, as the child’s own stream shows them', async () => {
    const run = await startDelegating('sub steps live', 2);
    const parent = await openEvents({ url }, run.id, { token: 'dev-token' });
    expect(parent.status).toBe(200);
    // The child is held on its third model call: its first lookups are in its chain already.
    const childChain = await h.agents.chain(run.childId, 'developer');
    expect(childChain.steps.length).toBeGreaterThan(3);
    const last = childChain.steps.at(-1)!.stepNumber;
    await parent.waitFor(
      'the child’s steps in the parent’s stream',
      (m) => m.event === 'sub_agent_step' && m.data.stepNumber === last,
      15_000,
    );
    const tagged = childSteps(parent.messages);
    expect(tagged.map((m) => m.data.step)).toEqual(childChain.steps);
    for (const m of tagged) {
      expect(m.data).toMatchObject({
        type: 'sub_agent_step',
        runId: run.id,
        subAgent: {
          workflowId: run.childId,
          agentName: 'researcher',
          callId: 'call_sub steps live',
          path: [run.childId],
        },
      });
      // Not a step of the parent: its id leaves the parent's resume point where it was.
      expect(m.id).toMatch(/^\d+\.\d+$/);
    }
    // The same steps the child's own stream shows this caller.
    const own = await openEvents({ url }, run.childId, { token: 'dev-token' });
    await own.waitFor('the child’s own steps', (m) => m.event === 'step' && m.data.stepNumber === last);
    own.close();
    expect(own.messages.filter((m) => m.event === 'step').map((m) => m.data.step)).toEqual(
      tagged.map((m) => m.data.step),
    );

    run.release();
    await parent.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    // The child's later steps came too, each once, all before the parent's end: the whole child chain.
    const whole = await h.agents.chain(run.childId, 'developer');
    expect(whole.steps.length).toBeGreaterThan(tagged.length);
    expect(childSteps(parent.messages).map((m) => m.data.step)).toEqual(whole.steps);
  });

  it('a caller whose lens hides sub-agents’ chains gets none of the child’s steps', async () => {
    const run = await startDelegating('sub steps hidden', 2);
    const hidden = await openEvents({ url }, run.id, { token: 'user-token' });
    const shown = await openEvents({ url }, run.id, { token: 'dev-token' });
    await shown.waitFor('the child’s steps for the developer', (m) => m.event === 'sub_agent_step', 15_000);
    // The child's own stream refuses this caller: the parent's gives nothing of it either.
    const own = await openEvents({ url }, run.childId, { token: 'user-token' });
    expect(own.status).toBe(403);
    run.release();
    await hidden.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    await shown.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    expect(hidden.messages.filter((m) => m.event === 'step').length).toBeGreaterThan(0);
    expect(childSteps(hidden.messages)).toEqual([]);
    expect(JSON.stringify(hidden.messages)).not.toContain('Looking up k0');
  });

  it('is bounded: at most maxSubAgentSteps of a child, none with maxSubAgentsFollowed 0 or ?subAgentSteps=false; a followed child is a watcher until it ends', async () => {
    const capped = await startServer({ maxSubAgentSteps: 2 });
    const off = await startServer({ maxSubAgentsFollowed: 0 });
    const run = await startDelegating('sub steps bounded', 2);
    const few = await openEvents(capped, run.id, { token: 'dev-token' });
    const none = await openEvents(off, run.id, { token: 'dev-token' });
    const declined = await openEvents({ url }, run.id, { token: 'dev-token', query: 'subAgentSteps=false' });
    expect((await openEvents({ url }, run.id, { token: 'dev-token', query: 'subAgentSteps=maybe' })).status).toBe(400);
    await few.waitFor('two child steps', (m) => m.event === 'sub_agent_step' && m.data.stepNumber === 2, 15_000);
    // The parent's watcher and the child's (stopped at its cap, so gone again); the other server follows none.
    await pollFor('the capped child to be left', () => (capped.route.watcherCount() === 1 ? true : undefined), 5_000);
    expect(off.route.watcherCount()).toBe(1);
    run.release();
    await few.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    await none.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    expect(childSteps(few.messages).map((m) => m.data.stepNumber)).toEqual([1, 2]);
    expect(childSteps(none.messages)).toEqual([]);
    await declined.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    expect(childSteps(declined.messages)).toEqual([]);
    await pollFor('every watcher to leave', () => (capped.route.watcherCount() === 0 ? true : undefined), 5_000);
  });

  it('follows a child while it runs: two watchers on the server while it runs, none once the run has ended', async () => {
    const counted = await startServer();
    const run = await startDelegating('sub steps counted', 1);
    const stream = await openEvents(counted, run.id, { token: 'dev-token' });
    await stream.waitFor('a child step', (m) => m.event === 'sub_agent_step', 15_000);
    expect(counted.route.watcherCount()).toBe(2);
    expect(counted.route.runCount()).toBe(2);
    run.release();
    await stream.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    await pollFor('every watcher to leave', () => (counted.route.watcherCount() === 0 ? true : undefined), 5_000);
  });

  it('follows a sub-agent’s own running sub-agent, tagged with the path down to it', async () => {
    const clerkTask = 'Look one key up [grandchild]';
    const clerk = book.script(clerkTask, lookupTurns(2), 1);
    const researcherTask = 'Have the clerk look it up [child of the tree]';
    book.script(researcherTask, [
      { content: [useTool('clerk', { task: clerkTask }, 'call_clerk')] },
      { content: [say('Final answer: the clerk looked it up.')] },
    ]);
    book.script('sub steps tree', [
      { content: [useTool('researcher', { task: researcherTask }, 'call_researcher')] },
      { content: [say('Final answer: done.')] },
    ]);
    const handle = await h.agents.start({
      task: 'sub steps tree',
      model: SCRIPTED_MODEL,
      caller: TENANT_CALLER,
      maxIterations: 10,
      agents: {
        researcher: { description: 'Delegates lookups', model: SCRIPTED_MODEL, tools: ['clerk'] },
        clerk: { description: 'Looks keys up', model: SCRIPTED_MODEL, tools: ['lookup'] },
      },
    });
    await pollFor('the grandchild to wait on its model', () => (clerk.waiting() > 0 ? true : undefined), 30_000);
    const stream = await openEvents({ url }, handle.workflowId, { token: 'dev-token' });
    const fromClerk = await stream.waitFor(
      'a step of the grandchild',
      (m) => m.event === 'sub_agent_step' && m.data.subAgent.agentName === 'clerk',
      15_000,
    );
    const researcherId = (await h.agents.status(handle.workflowId, 'developer')).subAgents[0]!.workflowId;
    const clerkId = (await h.agents.status(researcherId, 'developer')).subAgents[0]!.workflowId;
    expect(fromClerk.data.subAgent).toEqual({
      workflowId: clerkId,
      agentName: 'clerk',
      callId: 'call_clerk',
      path: [researcherId, clerkId],
    });
    clerk.release();
    await stream.waitFor('the parent’s end', (m) => m.event === 'end', 30_000);
    const clerkChain = await h.agents.chain(clerkId, 'developer');
    expect(
      childSteps(stream.messages)
        .filter((m) => m.data.subAgent.workflowId === clerkId)
        .map((m) => m.data.step),
    ).toEqual(clerkChain.steps);
  });
});
