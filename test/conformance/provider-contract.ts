import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FailureType, type ModelReply, type ModelRequest, type ModelTool } from '../../src/domain';
import type { ModelCallHooks, ModelProvider } from '../../src/domain/model/model-provider';

/**
 * What every `ModelProvider` must do, as vitest tests, whatever its backend: a fake server
 * scripted per scenario, or a real model steered by the scenario's prompt. A harness prepares the
 * backend for each scenario (`arrange`); a real model's harness prepares nothing and lets the
 * prompt do it, so the assertions below hold for both and name no backend's details.
 */
export type ContractScenario =
  | { kind: 'text'; text: string }
  | { kind: 'stop_sequence'; text: string; sequence: string }
  | { kind: 'max_tokens'; text: string }
  | { kind: 'tool_call'; tool: string; input: Record<string, unknown> }
  | { kind: 'malformed' }
  | { kind: 'hang' }
  | { kind: 'long_stream'; text: string };

export interface ProviderHarness {
  provider: ModelProvider;
  /** A valid request for this provider and model; the contract overrides what a scenario is about. */
  request(overrides: Partial<ModelRequest>): ModelRequest;
  /** Scripts the backend's next reply. A real model ignores it: the scenario's prompt steers it. */
  arrange(scenario: ContractScenario): void;
  /** Checks nothing scripted was left unused (fakes); a real model has nothing to check. */
  verify?(): void;
}

export interface ProviderCapabilities {
  /**
   * `reported`: a stop sequence comes back as stopReason `stop_sequence` (Anthropic, llama.cpp
   * in-process). `sent`: the API stops there but reports an ordinary stop (Chat Completions).
   */
  stopSequence: 'reported' | 'sent';
  /** The backend can be made to send an unreadable reply (a fake server); a model in-process cannot. */
  malformedReply: boolean;
  /** Milliseconds a call may take to reject once aborted. Generous: this is not a timing test. */
  abortBoundMs?: number;
  /** Per-test timeout; a real model on 2 cores needs more than a fake. */
  testTimeoutMs?: number;
}

/** A harness's `request`: a plain request to this provider and model, the scenario's overrides on top. */
export const contractRequest =
  (provider: string, model: string, fixed: Partial<ModelRequest> = {}): ProviderHarness['request'] =>
  (overrides) => ({
    provider,
    model,
    system: 'You are a careful assistant.',
    messages: [],
    tools: [],
    toolChoice: 'auto',
    maxTokens: 1024,
    ...overrides,
    ...fixed,
  });

/** The tool the contract offers: trivially easy, with a schema strict enough to catch a bad call. */
export const ADD_INPUT = z.object({ a: z.number(), b: z.number() }).strict();
export const ADD_TOOL: ModelTool = {
  name: 'add',
  description: 'Adds two numbers a and b.',
  inputSchema: (({ $schema: _dialect, ...schema }) => schema)(z.toJSONSchema(ADD_INPUT) as Record<string, unknown>),
};

const user = (text: string): ModelRequest['messages'] => [{ role: 'user', content: [{ type: 'text', text }] }];
const replyText = (reply: ModelReply): string => reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

/** Hooks that keep every text delta and count heartbeats. */
function watching(onDelta?: (text: string) => void): { hooks: ModelCallHooks; deltas: string[]; beats: () => number } {
  const deltas: string[] = [];
  let beats = 0;
  return {
    deltas,
    beats: () => beats,
    hooks: {
      heartbeat: () => (beats += 1),
      onTextDelta: (text) => {
        deltas.push(text);
        onDelta?.(text);
      },
    },
  };
}

/** Rejection of `promise` and how long after `since` it came; fails if it resolves. */
async function rejection(promise: Promise<unknown>, since: () => number): Promise<{ error: unknown; afterMs: number }> {
  return promise.then(
    () => expect.fail('the call resolved; it should have rejected'),
    (error: unknown) => ({ error, afterMs: Date.now() - since() }),
  );
}

export function defineProviderContract(
  name: string,
  /**
   * Called once, inside the contract's describe block: registers its own hooks (a fresh fake
   * server per test, a model loaded once) and returns an object they keep current.
   */
  useHarness: () => ProviderHarness,
  capabilities: ProviderCapabilities,
): void {
  const bound = capabilities.abortBoundMs ?? 2_000;
  const timeout = capabilities.testTimeoutMs ?? 10_000;

  describe(`provider contract: ${name}`, () => {
    const h = useHarness();
    it(
      'streams text: deltas arrive before the reply resolves and concatenate to its text; usage is positive',
      async () => {
        h.arrange({ kind: 'text', text: 'Paris is the capital of France.' });
        let resolved = false;
        const watch = watching(() => expect(resolved).toBe(false));
        const reply = await h.provider
          .complete(
            h.request({
              messages: user('What is the capital of France? Answer in one short sentence.'),
              maxTokens: 40,
            }),
            new AbortController().signal,
            watch.hooks,
          )
          .finally(() => (resolved = true));
        expect(watch.deltas.length).toBeGreaterThan(0);
        expect(watch.deltas.join('')).toBe(replyText(reply));
        expect(replyText(reply).length).toBeGreaterThan(0);
        expect(['end_turn', 'max_tokens']).toContain(reply.stopReason);
        expect(reply.usage.inputTokens).toBeGreaterThan(0);
        expect(reply.usage.outputTokens).toBeGreaterThan(0);
        expect(reply.costUsd).toBeGreaterThanOrEqual(0);
        expect(reply.durationMs).toBeGreaterThanOrEqual(0);
        h.verify?.();
      },
      timeout,
    );

    it(
      'stops before a stop sequence and never writes it',
      async () => {
        h.arrange({ kind: 'stop_sequence', text: '1, 2, 3, 4, ', sequence: '5' });
        const reply = await h.provider.complete(
          h.request({
            messages: user('Count from 1 to 10, separated by commas. Write only the numbers.'),
            stopSequences: ['5'],
            maxTokens: 60,
          }),
          new AbortController().signal,
        );
        expect(replyText(reply)).not.toContain('5');
        if (capabilities.stopSequence === 'reported') expect(reply.stopReason).toBe('stop_sequence');
        else expect(['stop_sequence', 'end_turn']).toContain(reply.stopReason);
        h.verify?.();
      },
      timeout,
    );

    it(
      'reports a reply cut at maxTokens as max_tokens',
      async () => {
        h.arrange({ kind: 'max_tokens', text: 'The sea is wide and' });
        const reply = await h.provider.complete(
          h.request({ messages: user('Write a long story about the sea, at least ten paragraphs.'), maxTokens: 8 }),
          new AbortController().signal,
        );
        expect(reply.stopReason).toBe('max_tokens');
        expect(reply.usage.outputTokens).toBeGreaterThan(0);
        expect(reply.usage.outputTokens).toBeLessThanOrEqual(8);
        h.verify?.();
      },
      timeout,
    );

    it(
      "calls a tool with arguments that pass the tool's schema",
      async () => {
        h.arrange({ kind: 'tool_call', tool: 'add', input: { a: 2, b: 3 } });
        const reply = await h.provider.complete(
          h.request({
            messages: user('What is 2 + 3? Use the add tool.'),
            tools: [ADD_TOOL],
            toolChoice: 'auto',
            maxTokens: 120,
            sampling: { temperature: 0 },
          }),
          new AbortController().signal,
        );
        const calls = reply.content.filter((b) => b.type === 'tool_use');
        expect(reply.stopReason).toBe('tool_use');
        expect(calls).toHaveLength(1);
        expect(calls[0]).toMatchObject({ type: 'tool_use', name: 'add' });
        const call = calls[0]!;
        expect(call.type === 'tool_use' && call.id.length > 0).toBe(true);
        if (call.type === 'tool_use') expect(ADD_INPUT.safeParse(call.input).success).toBe(true);
        h.verify?.();
      },
      timeout,
    );

    // Defined only where the backend can send one: an in-process model has no wire to corrupt.
    if (capabilities.malformedReply)
      it(
        'an unreadable reply is a typed, retryable ApplicationFailure, never a crash',
        async () => {
          h.arrange({ kind: 'malformed' });
          const { error } = await rejection(
            h.provider.complete(h.request({ messages: user('Hello?') }), new AbortController().signal),
            () => 0,
          );
          expect(error).toBeInstanceOf(ApplicationFailure);
          const failure = error as ApplicationFailure;
          expect(Object.values(FailureType)).toContain(failure.type);
          expect(failure.nonRetryable).toBe(false);
          h.verify?.();
        },
        timeout,
      );

    it(
      'a call aborted after a delay (a timeout) rejects promptly with the abort reason',
      async () => {
        h.arrange({ kind: 'hang' });
        const controller = new AbortController();
        const reason = new Error('start-to-close timeout');
        let abortedAt = 0;
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort(reason);
        }, 300);
        const { error, afterMs } = await rejection(
          h.provider.complete(
            h.request({ messages: user('Write a very long essay about the history of the sea.'), maxTokens: 4_000 }),
            controller.signal,
          ),
          () => abortedAt,
        );
        expect(error).toBe(reason);
        expect(afterMs).toBeLessThan(bound);
      },
      timeout,
    );

    it(
      'a call cancelled mid-stream (after its first delta) rejects with signal.reason within a bound',
      async () => {
        h.arrange({ kind: 'long_stream', text: 'The sea is wide. '.repeat(200) });
        const controller = new AbortController();
        const reason = new Error('activity cancelled');
        let abortedAt = 0;
        const watch = watching(() => {
          if (abortedAt !== 0) return;
          abortedAt = Date.now();
          controller.abort(reason);
        });
        const { error, afterMs } = await rejection(
          h.provider.complete(
            h.request({ messages: user('Write a very long essay about the history of the sea.'), maxTokens: 4_000 }),
            controller.signal,
            watch.hooks,
          ),
          () => abortedAt,
        );
        expect(watch.deltas.length).toBeGreaterThan(0);
        expect(error).toBe(reason);
        expect(afterMs).toBeLessThan(bound);
      },
      timeout,
    );
  });
}
