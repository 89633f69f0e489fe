import { describe, expect, it } from 'vitest';
import { renderUnavailable } from '../../src/domain/chain/render-unavailable';
import { runEnding } from '../../src/domain/run/run-ending';
import { TerminationReason } from '../../src/domain/run/termination';
import { subAgentTitle, type SubAgentRun } from '../../src/domain';
import { viewerModule } from './viewer-module';

interface SseMessage {
  event: string;
  data: string;
  id: string;
}
interface SseModule {
  createSseParser(): {
    push(chunk: string): SseMessage[];
    readonly lastEventId: string;
    readonly retry: number | undefined;
  };
  reconnectDelay(attempt: number, serverRetry?: number): number;
}
interface LiveBlock {
  key: string;
  kind: string;
  text: string;
}
interface ChainStateModule {
  createChainState(): {
    addSteps(steps: unknown[]): { stepNumber: number }[];
    readonly first: number;
    readonly last: number;
    readonly size: number;
    toolNames(): Map<string, string>;
    answeringModels(): Map<string, string>;
    applyDelta(event: { activityId: string; attempt: number; kind: string; offset: number; text: string }): LiveBlock;
    clearLive(): string[];
    readonly liveBlocks: LiveBlock[];
    applyProgress(event: unknown): { key: string; seq: number; message?: string; fraction?: number } | undefined;
    endProgress(added: unknown[]): string[];
    clearProgress(): string[];
  };
}
interface FormatModule {
  formatUsd(usd: unknown): string | undefined;
  formatTokens(usage: unknown): string | undefined;
  formatDuration(ms: unknown): string | undefined;
  progressLine(status: unknown, options?: { spend?: boolean }): string;
  stepTitle(step: unknown, names?: Map<string, string>, answeredBy?: Map<string, string>): string;
  stepFacts(step: unknown): string[];
  planLine(task: unknown): { mark: string; text: string; status: string; key: string };
  canDecide(me: unknown, record: unknown): boolean;
  goneStepsLine(unavailable: unknown): string | undefined;
  subAgentTitle(sub: unknown): string;
}
interface ApiModule {
  ApiFailure: new (
    status: number,
    code: string,
    message: string,
    issues?: Array<{ path: unknown[]; message: string }>,
  ) => Error;
  describeFailure(err: unknown): string;
}
interface TokenModule {
  tokenFromFragment(hash: string): { token: string; rest: string } | undefined;
}

describe('sse parser', () => {
  it('assembles messages across chunks, CRLF split between chunks included', async () => {
    const { createSseParser } = await viewerModule<SseModule>('sse.js');
    const parser = createSseParser();
    expect(parser.push('event: step\r\nid: 7\r\ndata: {"a"')).toEqual([]);
    expect(parser.push(':1}\r')).toEqual([]);
    expect(parser.push('\n\r\n: ping\n\nevent: status\nid: 7.1\ndata: x\ndata: y\n\n')).toEqual([
      { event: 'step', data: '{"a":1}', id: '7' },
      { event: 'status', data: 'x\ny', id: '7.1' },
    ]);
    expect(parser.lastEventId).toBe('7.1');
  });

  it('keeps the last id for messages without one, ignores ids with NUL, and events with no data', async () => {
    const { createSseParser } = await viewerModule<SseModule>('sse.js');
    const parser = createSseParser();
    const out = parser.push('id: 3\ndata: a\n\ndata: b\n\nid: bad\u0000\nevent: x\n\nretry: 2500\ndata:c\n\n');
    expect(out).toEqual([
      { event: 'message', data: 'a', id: '3' },
      { event: 'message', data: 'b', id: '3' },
      { event: 'message', data: 'c', id: '3' },
    ]);
    expect(parser.retry).toBe(2500);
  });

  it('backs off from the server hint, doubling to 15 s', async () => {
    const { reconnectDelay } = await viewerModule<SseModule>('sse.js');
    expect(reconnectDelay(0, 1200)).toBe(1200);
    expect([0, 1, 2, 3, 10].map((n) => reconnectDelay(n))).toEqual([500, 1000, 2000, 4000, 15_000]);
  });
});

const step = (n: number, extra: Record<string, unknown> = {}) => ({
  stepId: `s${n}`,
  stepNumber: n,
  type: 'thinking',
  thought: `t${n}`,
  timestamp: '2026-11-22T15:00:00Z',
  iteration: 1,
  visibility: { level: 'full' },
  ...extra,
});

describe('chain state', () => {
  it('holds each step once, whichever way it arrived, in order', async () => {
    const { createChainState } = await viewerModule<ChainStateModule>('chain-state.js');
    const state = createChainState();
    expect(state.addSteps([step(5), step(3)]).map((s) => s.stepNumber)).toEqual([3, 5]);
    expect(state.addSteps([step(5), step(6), step(4)]).map((s) => s.stepNumber)).toEqual([4, 6]);
    expect([state.first, state.last, state.size]).toEqual([3, 6, 4]);
    state.addSteps([
      step(7, {
        type: 'tool_call',
        toolCall: { toolName: 'search', correlationId: 'c1', toolType: 'external', arguments: {} },
      }),
    ]);
    expect(state.toolNames().get('c1')).toBe('search');
  });

  it('titles a model call by the model that answered it, naming the one asked (issue 79)', async () => {
    const { createChainState } = await viewerModule<ChainStateModule>('chain-state.js');
    const f = await viewerModule<FormatModule>('format.js');
    const state = createChainState();
    const llmCall = { toolName: 'claude-sonnet-4-6', correlationId: 'm1', toolType: 'llm', arguments: {} };
    const call = step(1, { type: 'tool_call', model: 'claude-sonnet-4-6', toolCall: llmCall });
    state.addSteps([call]);
    // Live, before the reply: only the model asked is known.
    expect(f.stepTitle(call, state.toolNames(), state.answeringModels())).toBe('Model call · claude-sonnet-4-6');
    state.addSteps([
      step(2, {
        type: 'tool_result',
        model: 'offline-model',
        toolResult: { correlationId: 'm1', success: true, result: { stopReason: 'end_turn' }, durationMs: 1 },
      }),
    ]);
    expect(state.answeringModels().get('m1')).toBe('offline-model');
    expect(f.stepTitle(call, state.toolNames(), state.answeringModels())).toBe(
      'Model call · offline-model (asked for claude-sonnet-4-6)',
    );
    // The model asked answered: named once; a tool call is never retitled.
    expect(f.stepTitle(call, new Map(), new Map([['m1', 'claude-sonnet-4-6']]))).toBe('Model call · claude-sonnet-4-6');
    const tool = { ...call, toolCall: { ...llmCall, toolType: 'external', toolName: 'search' } };
    expect(f.stepTitle(tool, new Map(), new Map([['m1', 'offline-model']]))).toBe('Tool call · search');
  });

  it('builds live text from deltas: repeats dropped, overlaps trimmed, gaps marked, retries replace', async () => {
    const { createChainState } = await viewerModule<ChainStateModule>('chain-state.js');
    const state = createChainState();
    const d = (offset: number, text: string, attempt = 1) =>
      state.applyDelta({ activityId: 'a1', attempt, kind: 'text', offset, text });
    d(0, 'Hello');
    d(5, ', wor');
    expect(d(0, 'Hello').text).toBe('Hello, wor');
    expect(d(7, 'world').text).toBe('Hello, world');
    expect(d(20, 'late').text).toBe('Hello, world…late');
    expect(d(0, 'Again', 2).text).toBe('Again');
    expect(state.liveBlocks.map((b) => b.key)).toEqual(['a1#2']);
    expect(state.clearLive()).toEqual(['a1#2']);
    expect(state.liveBlocks).toEqual([]);
  });
});

describe('tool progress', () => {
  it('keeps the latest update of a running call, ignores older ones, and drops it when the call’s result lands', async () => {
    const { createChainState } = await viewerModule<ChainStateModule>('chain-state.js');
    const state = createChainState();
    state.addSteps([
      step(3, {
        stepId: 'call-3',
        type: 'tool_call',
        toolCall: { toolName: 'scan', correlationId: 'c3', toolType: 'external', arguments: {} },
      }),
    ]);
    const p = (seq: number, attempt = 1, extra: Record<string, unknown> = {}) =>
      state.applyProgress({ stepId: 'call-3', toolName: 'scan', attempt, seq, ...extra });
    expect(p(1, 1, { message: 'scanned 100', fraction: 0.2 })).toMatchObject({
      key: 'progress:call-3',
      seq: 1,
      fraction: 0.2,
    });
    expect(p(3, 1, { fraction: 0.6 })?.seq).toBe(3);
    expect(p(2, 1, { fraction: 0.4 })?.seq).toBe(3);
    expect(p(1, 2, { fraction: 7 })).toEqual({
      key: 'progress:call-3',
      stepId: 'call-3',
      toolName: 'scan',
      attempt: 2,
      seq: 1,
    });
    expect(state.applyProgress({ toolName: 'scan', seq: 1 })).toBeUndefined();
    const result = step(4, {
      type: 'tool_result',
      toolResult: { correlationId: 'c3', success: true, result: 1, durationMs: 1 },
    });
    expect(state.endProgress([step(5), result])).toEqual(['progress:call-3']);
    expect(state.clearProgress()).toEqual([]);
  });
});

describe('format', () => {
  it('writes the progress line from what the status has, and leaves out what it lacks', async () => {
    const { progressLine } = await viewerModule<FormatModule>('format.js');
    expect(progressLine({ stepCount: 7, iterations: 3, maxIterations: 10, costUsd: 0.0412 })).toBe(
      'step 7 · iteration 3/10 · $0.04',
    );
    expect(progressLine({ stepCount: 7, iterations: 3, maxIterations: 10 })).toBe('step 7 · iteration 3/10');
    expect(progressLine({ steps: 2, iteration: 1 })).toBe('step 2 · iteration 1');
    expect(
      progressLine({ stepCount: 4, iterations: 2, progress: { maxIterations: 5 }, costUsd: 1 }, { spend: false }),
    ).toBe('step 4 · iteration 2/5');
    expect(progressLine(undefined)).toBe('');
  });

  it('formats money, tokens and durations for people', async () => {
    const f = await viewerModule<FormatModule>('format.js');
    expect([f.formatUsd(0), f.formatUsd(0.0023), f.formatUsd(1.5), f.formatUsd(undefined)]).toEqual([
      '$0.00',
      '$0.0023',
      '$1.50',
      undefined,
    ]);
    expect(f.formatTokens({ inputTokens: 1234, outputTokens: 56, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      '1,234 in · 56 out',
    );
    expect(f.formatTokens(undefined)).toBeUndefined();
    expect([f.formatDuration(850), f.formatDuration(2400), f.formatDuration(185_000)]).toEqual([
      '850 ms',
      '2.4 s',
      '3 min 5 s',
    ]);
  });

  it('titles steps and lists only the facts a step carries (an end user’s step has no tokens or cost)', async () => {
    const f = await viewerModule<FormatModule>('format.js');
    const call = {
      ...step(2),
      type: 'tool_call',
      toolCall: { toolType: 'external', toolName: 'pay', correlationId: 'c', arguments: {} },
    };
    const result = {
      ...step(3),
      type: 'tool_result',
      toolResult: { correlationId: 'c', success: false, durationMs: 1200 },
    };
    expect(f.stepTitle(call)).toBe('Tool call · pay');
    expect(f.stepTitle(result, new Map([['c', 'pay']]))).toBe('Result · pay (failed)');
    expect(f.stepTitle({ ...step(4), type: 'synthesis' })).toBe('Answer');
    // A model's reply is titled by the model that answered (here the offline model, asked for claude).
    const reply = {
      ...step(5),
      type: 'tool_result',
      model: 'offline-model',
      toolResult: { correlationId: 'm', success: true, result: { stopReason: 'end_turn' }, durationMs: 3 },
    };
    expect(f.stepTitle(reply, new Map([['m', 'claude']]))).toBe('Model reply · offline-model');
    expect(f.stepTitle({ ...reply, toolResult: { ...reply.toolResult, success: false, result: null } })).toBe(
      'Model reply · offline-model (failed)',
    );
    const model = {
      ...step(1),
      type: 'tool_call',
      model: 'claude',
      usage: { inputTokens: 10, outputTokens: 2 },
      costUsd: 0.5,
      toolCall: { toolType: 'llm', toolName: 'claude', correlationId: 'm', arguments: {} },
    };
    expect(f.stepFacts(model).join(' | ')).toMatch(/claude \| 10 in · 2 out \| \$0\.50$/);
    const { usage: _u, costUsd: _c, ...endUser } = model;
    expect(f.stepFacts(endUser).some((x) => /\$|in ·/.test(x))).toBe(false);
    expect(f.stepFacts(result)).toContain('1.2 s');
    // A call whose model the run chose says why, as the CLI's model-call line does.
    const routed = { ...model, toolCall: { ...model.toolCall, routed: 'a low-complexity task: claude-haiku-4-5' } };
    expect(f.stepFacts(routed)).toContain('routed: a low-complexity task: claude-haiku-4-5');
    expect(f.stepFacts(model).some((x) => x.startsWith('routed'))).toBe(false);
  });

  it('shows decision buttons only to people whose roles may decide a pending record', async () => {
    const { canDecide } = await viewerModule<FormatModule>('format.js');
    const rec = (approverRoles: string[], status = 'pending') => ({ status, approverRoles });
    expect(canDecide({ roles: [] }, rec([]))).toBe(true);
    expect(canDecide({ roles: ['finance'] }, rec(['finance', 'cfo']))).toBe(true);
    expect(canDecide({ roles: ['developer'] }, rec(['finance']))).toBe(false);
    expect(canDecide({ roles: ['finance'] }, rec(['finance'], 'approved'))).toBe(false);
    expect(canDecide(undefined, rec(['finance']))).toBe(false);
  });

  it('says which first steps are gone in the words the CLI and the export use, and nothing for a chain that lacks none', async () => {
    const { goneStepsLine } = await viewerModule<FormatModule>('format.js');
    const gone = { runId: 'run-3', throughStep: 80 };
    expect(goneStepsLine(gone)).toBe(renderUnavailable(gone));
    expect([
      goneStepsLine(undefined),
      goneStepsLine({ runId: 'r', throughStep: 0 }),
      goneStepsLine({ runId: 'r', throughStep: '80' }),
    ]).toEqual([undefined, undefined, undefined]);
  });

  it('names a branch of an explore_branches call as the CLI does, its winner starred, and the choice step', async () => {
    const { subAgentTitle: title, stepTitle } = await viewerModule<FormatModule>('format.js');
    const branch = { agentName: 'geo', branch: { group: 'c', index: 2, label: 'index', winner: true } };
    expect(title(branch)).toBe(subAgentTitle(branch as SubAgentRun));
    expect(title(branch)).toBe('geo · branch 2 “index” ★ chosen');
    expect(title({ agentName: 'geo' })).toBe('geo');
    expect(stepTitle({ ...step(1), type: 'thinking', thought: 't', purpose: 'branch_choice' })).toBe('Branch chosen');
  });

  it('marks plan tasks and never trusts an unknown status', async () => {
    const { planLine } = await viewerModule<FormatModule>('format.js');
    expect(planLine({ description: 'Read the data', status: 'completed' })).toEqual({
      mark: '✓',
      text: 'Read the data',
      status: 'completed',
      key: 'completed',
    });
    expect(planLine({ description: 'x', status: 'in_progress' }).status).toBe('in progress');
    expect(planLine({ description: 'x', status: '<img>' }).mark).toBe('○');
    expect(planLine({ description: 'x', status: 'constructor' }).key).toBe('pending');
  });
});

describe('token fragment', () => {
  it('takes a token only from a fragment that starts with token=', async () => {
    const { tokenFromFragment } = await viewerModule<TokenModule>('token.js');
    expect(tokenFromFragment('#token=abc%2Fdef')).toEqual({ token: 'abc/def', rest: '#/' });
    expect(tokenFromFragment('#token=abc&/runs/r1')).toEqual({ token: 'abc', rest: '#/runs/r1' });
    expect(tokenFromFragment('#/runs/r1')).toBeUndefined();
    expect(tokenFromFragment('#token=')).toBeUndefined();
    expect(tokenFromFragment('#token=%E0%A4%A')).toBeUndefined();
  });
});

describe('api failures', () => {
  it("shows the server's message, adding only the field issues it does not already name", async () => {
    const { ApiFailure, describeFailure } = await viewerModule<ApiModule>('api.js');
    const named = new ApiFailure(400, 'bad_request', 'Invalid request at body.maxIterations: Too small.', [
      { path: ['maxIterations'], message: 'Too small.' },
    ]);
    expect(describeFailure(named)).toBe('Invalid request at body.maxIterations: Too small.');
    const terse = new ApiFailure(400, 'bad_request', 'Fix the body.', [
      { path: ['task'], message: 'Required' },
      { path: [], message: 'Unknown key' },
    ]);
    expect(describeFailure(terse)).toBe('Fix the body. (task: Required; (body): Unknown key)');
    expect(describeFailure(new Error('boom'))).toBe('boom');
  });
});

describe('endingBadge (format.js)', () => {
  interface Badge {
    text: string;
    state: string;
    className: string;
    title: string;
  }
  const load = () => viewerModule<{ endingBadge(run: unknown): Badge }>('format.js');

  it("shows the ending's label in its tone, never a green completed for a failing run", async () => {
    const { endingBadge } = await load();
    const failed = endingBadge({
      status: 'failed',
      ending: { state: 'failed', terminationReason: 'error', label: 'error', tone: 'bad', summary: 'error: no key' },
    });
    expect(failed).toEqual({ text: 'error', state: 'failed', className: 'status tone-bad', title: 'error: no key' });
    expect(endingBadge({ status: 'running' })).toMatchObject({ text: 'running', className: 'status status-running' });
  });

  it('colours a search hit (state and reason, no ending) with the tone runEnding gives its reason', async () => {
    const { endingBadge } = await load();
    for (const reason of TerminationReason.options) {
      const ending = runEnding({ terminationReason: reason });
      expect(endingBadge({ state: ending.state, terminationReason: reason }), reason).toMatchObject({
        text: reason,
        state: ending.state,
        className: `status tone-${ending.tone}`,
      });
    }
  });
});

interface LiveSubAgentsModule {
  createLiveSubAgents(): {
    add(event: unknown): { workflowId: string | undefined; added: { stepNumber: number }[] };
    get(workflowId: string): { all(): { stepNumber: number }[] } | undefined;
  };
}

describe('running sub-agents’ steps from the parent’s stream (viewer/sub-agents.js)', () => {
  it('keeps each child’s steps by its id, each once, in step order; an event without a child or a step adds nothing', async () => {
    const { createLiveSubAgents } = await viewerModule<LiveSubAgentsModule>('sub-agents.js');
    const live = createLiveSubAgents();
    const event = (workflowId: string, stepNumber: number) => ({
      type: 'sub_agent_step',
      subAgent: { workflowId, agentName: 'researcher', callId: 'c1', path: [workflowId] },
      stepNumber,
      step: { stepNumber, type: 'thinking', thought: `step ${stepNumber}` },
    });
    expect(live.add(event('p/researcher-1', 2)).added.map((s) => s.stepNumber)).toEqual([2]);
    expect(live.add(event('p/researcher-1', 1)).added.map((s) => s.stepNumber)).toEqual([1]);
    // A resend after a reconnect: nothing new.
    expect(live.add(event('p/researcher-1', 2)).added).toEqual([]);
    expect(live.add(event('p/clerk-2', 1))).toMatchObject({ workflowId: 'p/clerk-2', added: [{ stepNumber: 1 }] });
    expect(live.add({ type: 'sub_agent_step', step: { stepNumber: 3 } }).added).toEqual([]);
    expect(live.add({ type: 'sub_agent_step', subAgent: { workflowId: 'p/x' } }).added).toEqual([]);
    expect(
      live
        .get('p/researcher-1')!
        .all()
        .map((s) => s.stepNumber),
    ).toEqual([1, 2]);
    expect(live.get('p/x')).toBeUndefined();
  });
});

interface RunSortModule {
  sortRuns(runs: object[], key: string, dir: 'asc' | 'desc'): Array<{ runId: string }>;
  showsSpend(runs: object[]): boolean;
}

describe('the run list sorted by a column (viewer/run-sort.js)', () => {
  const runs = [
    { runId: 'a', agentName: 'support', task: 't', status: 'running', startedAt: '2026-11-29T01:00:00Z' },
    {
      runId: 'b',
      agentName: 'billing',
      task: 't',
      status: 'completed',
      startedAt: '2026-11-29T00:59:00Z',
      durationMs: 4_000,
      iterations: 3,
      costUsd: 0.02,
      model: 'offline-model',
    },
    {
      runId: 'c',
      agentName: 'support',
      task: 't',
      status: 'failed',
      startedAt: '2026-11-29T00:58:00Z',
      durationMs: 900,
      iterations: 7,
      costUsd: 0.5,
      model: 'claude-haiku-4-5',
    },
  ];
  const ids = (rows: Array<{ runId: string }>) => rows.map((r) => r.runId).join('');

  it('sorts numbers as numbers and text as text, either way, keeping the API order for ties', async () => {
    const { sortRuns } = await viewerModule<RunSortModule>('run-sort.js');
    expect(ids(sortRuns(runs, 'cost', 'desc'))).toBe('cba');
    expect(ids(sortRuns(runs, 'iterations', 'asc'))).toBe('bca');
    expect(ids(sortRuns(runs, 'took', 'asc'))).toBe('cba');
    expect(ids(sortRuns(runs, 'agent', 'asc'))).toBe('bac');
    expect(ids(sortRuns(runs, 'started', 'asc'))).toBe('cba');
    // An unknown column leaves the order as it came.
    expect(ids(sortRuns(runs, 'nonsense', 'asc'))).toBe('abc');
  });

  it('puts a run without the value (still running, or no spend in its view) last, whichever way', async () => {
    const { sortRuns } = await viewerModule<RunSortModule>('run-sort.js');
    expect(ids(sortRuns(runs, 'model', 'asc')).at(-1)).toBe('a');
    expect(ids(sortRuns(runs, 'model', 'desc')).at(-1)).toBe('a');
  });

  it("shows spend columns only when some row carries spend (never in the end user's view)", async () => {
    const { showsSpend } = await viewerModule<RunSortModule>('run-sort.js');
    expect(showsSpend(runs)).toBe(true);
    expect(showsSpend(runs.map(({ costUsd: _c, ...rest }) => rest))).toBe(false);
  });
});

interface ListLiveModule {
  mergeFirstPage(
    loaded: Array<{ runId: string; startedAt: string; status?: string }>,
    fresh: Array<{ runId: string; startedAt: string; status?: string }>,
  ): Array<{ runId: string; status?: string }>;
}

describe('the run list kept current (viewer/run-list-live.js)', () => {
  const run = (runId: string, minute: number, status = 'completed') => ({
    runId,
    startedAt: `2026-11-29T04:${String(minute).padStart(2, '0')}:00.000Z`,
    status,
  });

  it('takes the fresh first page as it is now, then the older rows of pages loaded after it', async () => {
    const { mergeFirstPage } = await viewerModule<ListLiveModule>('run-list-live.js');
    const loaded = [run('c', 30, 'running'), run('b', 20), run('a', 10)];
    // A new run on top, c ended, b left the first page (the page is two rows); a, from page two, stays.
    const fresh = [run('d', 40, 'running'), run('c', 30)];
    expect(mergeFirstPage(loaded, fresh)).toEqual([run('d', 40, 'running'), run('c', 30), run('b', 20), run('a', 10)]);
  });

  it("drops a loaded row within the first page's span that the first page no longer holds", async () => {
    const { mergeFirstPage } = await viewerModule<ListLiveModule>('run-list-live.js');
    // d started after c but is gone from the first page (it no longer matches the filter); a stays.
    const loaded = [run('d', 35, 'running'), run('c', 30), run('a', 10)];
    expect(mergeFirstPage(loaded, [run('e', 40), run('c', 30)]).map((r) => r.runId)).toEqual(['e', 'c', 'a']);
  });
});

describe('which sorts the server makes (viewer/run-sort.js)', () => {
  it('asks the server for its columns, never for its own order or a column only the loaded rows sort by', async () => {
    const { serverOrder } = await viewerModule<{ serverOrder(sort: { key: string; dir: string }): object }>(
      'run-sort.js',
    );
    expect(serverOrder({ key: 'cost', dir: 'desc' })).toEqual({ sort: 'cost', order: 'desc' });
    expect(serverOrder({ key: 'started', dir: 'asc' })).toEqual({ sort: 'started', order: 'asc' });
    expect(serverOrder({ key: 'started', dir: 'desc' })).toEqual({});
    expect(serverOrder({ key: 'status', dir: 'asc' })).toEqual({});
    expect(serverOrder({ key: 'constructor', dir: 'asc' })).toEqual({});
  });
});

describe("the run list's filter by ending (viewer/run-filters.js)", () => {
  it('offers every termination reason the server knows, and no other', async () => {
    const { REASONS } = await viewerModule<{ REASONS: string[] }>('run-filters.js');
    expect(REASONS).toEqual(['', ...TerminationReason.options]);
  });
});
