import { describe, expect, it } from 'vitest';
import type { Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { remoteOutcome } from '../../src/activities/a2a/remote-task-result';
import {
  ChainArtifactData,
  MAX_CHAIN_ARTIFACT_CHARS,
  MAX_CHAIN_ARTIFACT_STEPS,
  MAX_REMOTE_CHAIN_LINES,
  MAX_REMOTE_LINE_CHARS,
  type ReasoningStep,
  type SubAgentRun,
} from '../../src/domain';
import { ReasoningChain } from '../../src/domain/chain/chain';
import { viewChain } from '../../src/domain/chain/chain-view';
import { chainArtifactData } from '../../src/server/a2a/tasks/chain-artifact';

/** A full-level thought of `chars` characters. */
const thought = (n: number, chars = 10): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: '2026-01-01T00:00:00.000Z',
    iteration: 0,
    visibility: { level: 'full' },
    type: 'thinking',
    thought: `t${n}`.padEnd(chars, '.'),
  }) as ReasoningStep;
const thoughts = (count: number, chars = 10): ReasoningStep[] =>
  Array.from({ length: count }, (_, i) => thought(i + 1, chars));

const CARD = 'https://remote.example/a2a/researcher/.well-known/agent-card.json';

/** A completed remote task: the answer artifact, and a chain artifact holding `value`. */
const taskWith = (value: unknown): Task =>
  ({
    id: 't1',
    contextId: 'c1',
    status: { state: 3, message: undefined, timestamp: '' },
    artifacts: [
      {
        artifactId: 'final-answer',
        name: 'Final answer',
        description: '',
        parts: [
          {
            content: { $case: 'text', value: 'gamma is 50' },
            metadata: undefined,
            filename: '',
            mediaType: 'text/plain',
          },
        ],
        metadata: undefined,
        extensions: [],
      },
      {
        artifactId: 'reasoning-chain',
        name: 'Reasoning chain',
        description: '',
        parts: [
          {
            content: { $case: 'data', value },
            metadata: undefined,
            filename: '',
            mediaType: 'application/vnd.thoughtline.chain+json',
          },
        ],
        metadata: undefined,
        extensions: [],
      },
    ],
    history: [],
    metadata: undefined,
  }) as unknown as Task;

describe('the chain artifact’s bounds', () => {
  it('holds every step up to the step limit, and at one more keeps the limit and says so', () => {
    const atLimit = chainArtifactData('r1', 'developer', thoughts(MAX_CHAIN_ARTIFACT_STEPS));
    expect(atLimit.steps).toHaveLength(MAX_CHAIN_ARTIFACT_STEPS);
    expect(atLimit.truncated).toBeUndefined();
    expect(ChainArtifactData.safeParse(atLimit).success).toBe(true);

    const over = chainArtifactData('r1', 'developer', thoughts(MAX_CHAIN_ARTIFACT_STEPS + 1));
    expect(over.steps).toHaveLength(MAX_CHAIN_ARTIFACT_STEPS);
    expect(over.totalSteps).toBe(MAX_CHAIN_ARTIFACT_STEPS + 1);
    expect(over.truncated).toEqual({
      reason: 'steps',
      note: `Cut at ${MAX_CHAIN_ARTIFACT_STEPS} steps: the first ${MAX_CHAIN_ARTIFACT_STEPS} steps of ${MAX_CHAIN_ARTIFACT_STEPS + 1}. The whole chain: GET /v1/runs/r1/chain with the same token.`,
    });
    expect(ChainArtifactData.safeParse(over).success).toBe(true);
  });

  it('holds steps up to the character limit exactly, and cuts at the step that goes over', () => {
    const size = (step: ReasoningStep): number => JSON.stringify(step).length;
    const fit = Math.floor(MAX_CHAIN_ARTIFACT_CHARS / (size(thought(1, 2_000)) + 10));
    // Pad the last step so the steps add up to the limit exactly.
    const steps = thoughts(fit, 2_000);
    const before = steps.slice(0, -1).reduce((n, s) => n + size(s), 0);
    const rest = MAX_CHAIN_ARTIFACT_CHARS - before - size(steps[fit - 1]!);
    steps[fit - 1] = thought(fit, 2_000 + rest);
    expect(steps.reduce((n, s) => n + size(s), 0)).toBe(MAX_CHAIN_ARTIFACT_CHARS);
    expect(fit).toBeLessThan(MAX_CHAIN_ARTIFACT_STEPS);
    expect(chainArtifactData('r1', 'auditor', steps).truncated).toBeUndefined();

    steps[fit - 1] = thought(fit, 2_000 + rest + 1);
    const cut = chainArtifactData('r1', 'auditor', steps);
    expect(cut.steps).toHaveLength(fit - 1);
    expect(cut.truncated?.reason).toBe('size');
    expect(cut.truncated?.note).toContain(`the first ${fit - 1} steps of ${fit}`);
  });
});

describe('a parent reading a remote chain artifact', () => {
  it('links a valid one as bounded, redacted lines with the whole chain’s address on the card’s origin', () => {
    const data = chainArtifactData('run-b', 'developer', [
      ...thoughts(MAX_REMOTE_CHAIN_LINES + 5),
      { ...thought(99), thought: `key sk-live-123 ${'x'.repeat(2 * MAX_REMOTE_LINE_CHARS)}` } as ReasoningStep,
    ]);
    data.steps.unshift({ ...thought(500), thought: 'the key is sk-live-123' } as ReasoningStep);
    const outcome = remoteOutcome(
      taskWith(data),
      1_000,
      (v) => String(v).replaceAll('sk-live-123', '[REDACTED]'),
      CARD,
    );
    expect(outcome.text).toBe('gamma is 50');
    const chain = outcome.chain!;
    expect(chain).toMatchObject({
      runId: 'run-b',
      view: 'developer',
      url: 'https://remote.example/v1/runs/run-b/chain',
      truncated: true,
    });
    expect(chain.steps).toHaveLength(MAX_REMOTE_CHAIN_LINES);
    expect(chain.steps[0]).toEqual({ type: 'thinking', text: 'the key is [REDACTED]' });
    expect(JSON.stringify(chain)).not.toContain('sk-live-123');
  });

  it('keeps no address on another origin, cuts long lines, and refuses what does not read as a chain, keeping the answer', () => {
    const long = {
      ...chainArtifactData('run-b', 'developer', [thought(1, 5 * MAX_REMOTE_LINE_CHARS)]),
      chain: 'https://evil.example/steal',
    };
    const linked = remoteOutcome(taskWith(long), 1_000, (v) => v, CARD).chain!;
    expect(linked.url).toBeUndefined();
    expect(linked.steps[0]!.text).toHaveLength(MAX_REMOTE_LINE_CHARS);

    for (const bad of [
      {
        kind: 'thoughtline-chain',
        version: 1,
        runId: 'r',
        view: 'developer',
        totalSteps: 1,
        steps: [{ type: 'shell', cmd: 'rm -rf /' }],
        chain: '/c',
      },
      { kind: 'thoughtline-chain', version: 2, runId: 'r', view: 'developer', totalSteps: 0, steps: [], chain: '/c' },
      { kind: 'thoughtline-chain', version: 1, runId: 'r', view: 'god', totalSteps: 0, steps: [], chain: '/c' },
      'not an object',
    ]) {
      const outcome = remoteOutcome(taskWith(bad), 1_000, (v) => v, CARD);
      expect(outcome.text).toBe('gamma is 50');
      expect(outcome.chain).toMatchObject({ totalSteps: 0, steps: [] });
      expect(outcome.chain!.refused).toMatch(/not a Thoughtline chain this worker reads/);
    }
    const huge = chainArtifactData('r', 'developer', []);
    const oversized = { ...huge, padding: 'x'.repeat(MAX_CHAIN_ARTIFACT_CHARS + 16_001) };
    expect(remoteOutcome(taskWith(oversized), 1_000, (v) => v, CARD).chain!.refused).toMatch(/at most \d+ are read/);
  });
});

describe('a linked remote chain in the parent’s views', () => {
  const run = (view: 'end_user' | 'developer'): SubAgentRun => ({
    callId: 'c1',
    agentName: 'researcher_remote',
    workflowId: 'wf-1/researcher_remote-1',
    status: 'completed',
    budget: { maxIterations: 5 },
    remote: {
      card: CARD,
      state: 'completed',
      chain: { runId: 'run-b', view, totalSteps: 1, steps: [{ type: 'thinking', text: 'secret plan' }] },
    },
  });
  const chainWith = (sub: SubAgentRun) =>
    ReasoningChain.parse({
      schemaVersion: 1,
      chainId: 'wf-1',
      agentName: 'a',
      task: 't',
      status: 'completed',
      startedAt: '2026-01-01T00:00:00.000Z',
      steps: [
        {
          stepId: 's1',
          stepNumber: 1,
          timestamp: '2026-01-01T00:00:00.000Z',
          iteration: 0,
          visibility: { level: 'full' },
          type: 'tool_result',
          toolResult: { correlationId: 'c1', success: true, result: 'gamma is 50', durationMs: 1, subAgent: sub },
        },
      ],
      subAgents: [sub],
    });
  const linesIn = (chain: ReturnType<typeof viewChain>) => {
    const step = chain.steps[0]!;
    return [
      step.type === 'tool_result' ? step.toolResult.subAgent?.remote?.chain : undefined,
      chain.subAgents?.[0]?.remote?.chain,
    ];
  };

  it('shows lines given in the developer view to developers and auditors, not to end users (it says why)', () => {
    const chain = chainWith(run('developer'));
    for (const role of ['developer', 'auditor'] as const)
      for (const linked of linesIn(viewChain(chain, role))) expect(linked?.steps).toHaveLength(1);
    for (const linked of linesIn(viewChain(chain, 'end_user'))) {
      expect(linked?.steps).toEqual([]);
      expect(linked?.withheld).toBe('the remote gave them in the developer view');
    }
    // Lines an end user's view gave stay for the parent's end users.
    for (const linked of linesIn(viewChain(chainWith(run('end_user')), 'end_user')))
      expect(linked?.steps).toHaveLength(1);
  });
});
