import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentClient } from '../../../src/client/agent-client';
import { RunNotReadyError, RunStream, type StreamSignal } from '../../../src/server/events/run-stream';
import { createMemoryBus } from '../../../src/events/memory-bus';

/** What `describe()` answers, changed by each test as the run moves on. */
interface Described {
  runId: string;
  historyLength: number;
  status: { name: string };
}

/** An AgentClient as the stream uses it: describe, chain and status reads, no Temporal behind. */
function fakeAgents(described: Described) {
  const chain = vi.fn(async (workflowId: string, _view?: string) => ({
    chainId: workflowId,
    status: 'thinking',
    steps: [],
  }));
  const status = vi.fn(async () => ({ status: 'thinking', steps: 0 }));
  const describe = vi.fn(async () => ({ ...described }));
  const agents = {
    getHandle: () => ({ describe }),
    chain,
    status,
    client: { connection: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() } },
  } as unknown as AgentClient;
  return { agents, chain, status, describe };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('RunStream before the run’s first workflow task ends', () => {
  const streams: RunStream[] = [];
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
  });

  it('refuses reads at once without a query, then tells its watchers to catch up once the run can be read', async () => {
    const described: Described = { runId: 'r1', historyLength: 3, status: { name: 'RUNNING' } };
    const { agents, chain, status } = fakeAgents(described);
    const stream = new RunStream('wf-1', {
      agents,
      bus: createMemoryBus(),
      safetyPollMs: 3_600_000,
      readTimeoutMs: 5_000,
    });
    streams.push(stream);
    const signals: StreamSignal[] = [];
    stream.attach({ signal: (s) => signals.push(s) });

    await expect(stream.chainInView('developer', stream.now)).rejects.toBeInstanceOf(RunNotReadyError);
    await expect(stream.statusInView('developer', stream.now)).rejects.toBeInstanceOf(RunNotReadyError);
    expect(chain).not.toHaveBeenCalled();
    expect(status).not.toHaveBeenCalled();

    // The first task ends: the stream notices without its safety net and sends both signals.
    described.historyLength = 5;
    await until('the catch-up signals', () => signals.some((s) => s.kind === 'status-changed'));
    expect(signals.map((s) => s.kind)).toEqual(['steps-exist', 'status-changed']);
    expect(signals[0]).toMatchObject({ kind: 'steps-exist', upTo: Number.MAX_SAFE_INTEGER });
    await until('the stream to read its facts', () => chain.mock.calls.some((c) => c[1] === 'auditor'));

    await expect(stream.chainInView('developer', stream.now)).resolves.toMatchObject({ chainId: 'wf-1' });
    expect(chain).toHaveBeenCalledWith('wf-1', 'developer');
  });

  it('reads a closed run at once, and asks again once the run continued as new', async () => {
    const described: Described = { runId: 'r1', historyLength: 2, status: { name: 'COMPLETED' } };
    const { agents, chain, describe } = fakeAgents(described);
    const closed = new RunStream('wf-2', {
      agents,
      bus: createMemoryBus(),
      safetyPollMs: 3_600_000,
      readTimeoutMs: 5_000,
    });
    streams.push(closed);
    await expect(closed.chainInView('developer', closed.now)).resolves.toMatchObject({ chainId: 'wf-2' });

    Object.assign(described, { historyLength: 40, status: { name: 'RUNNING' } });
    const running = new RunStream('wf-3', { agents, bus: createMemoryBus(), safetyPollMs: 20, readTimeoutMs: 5_000 });
    streams.push(running);
    running.attach({ signal: () => {} });
    await expect(running.chainInView('developer', running.now)).resolves.toMatchObject({ chainId: 'wf-3' });
    const readsWhenReady = chain.mock.calls.length;

    // A new Temporal run under the same id, its first task still running: the safety net's next look sees it.
    Object.assign(described, { runId: 'r2', historyLength: 3 });
    const looked = describe.mock.calls.length;
    await until('the safety net to look again', () => describe.mock.calls.length > looked + 1);
    await expect(running.chainInView('developer', running.now)).rejects.toBeInstanceOf(RunNotReadyError);
    expect(chain.mock.calls.length).toBe(readsWhenReady);
  });
});
