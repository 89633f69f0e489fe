import { describe, expect, it } from 'vitest';
import { AgentToolInput, GetRunInput } from '../../src/mcp-server/agent-tool-input';
import { runIdOfUri } from '../../src/mcp-server/get-run';
import { cutText, MAX_CONTEXT, MAX_RUN_ID_CHARS, MAX_TASK } from '../../src/mcp-server/mcp-limits';
import { resultContent } from '../../src/mcp-server/run-result-content';
import type { AgentResult } from '../../src/domain';
import { runEnding } from '../../src/domain/run/run-ending';

/** A context object of exactly `bytes` bytes as JSON. */
const contextOf = (bytes: number): Record<string, string> => ({ k: 'x'.repeat(bytes - '{"k":""}'.length) });

describe('agent tool input bounds', () => {
  it('takes a task of MAX_TASK bytes and refuses one byte more, naming the field', () => {
    expect(AgentToolInput.safeParse({ task: 'a'.repeat(MAX_TASK) }).success).toBe(true);
    const over = AgentToolInput.safeParse({ task: 'a'.repeat(MAX_TASK + 1) });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe(`task must be at most ${MAX_TASK} bytes (UTF-8).`);
  });

  it('takes a context of MAX_CONTEXT bytes as JSON and refuses one byte more; no other field', () => {
    expect(AgentToolInput.safeParse({ task: 't', context: contextOf(MAX_CONTEXT) }).success).toBe(true);
    expect(AgentToolInput.safeParse({ task: 't', context: contextOf(MAX_CONTEXT + 1) }).success).toBe(false);
    expect(AgentToolInput.safeParse({ task: 't', caller: { id: 'root' } }).success).toBe(false);
  });

  it('takes a run id of MAX_RUN_ID_CHARS and refuses a longer one, in get_run and in resource URIs', () => {
    expect(GetRunInput.safeParse({ runId: 'r'.repeat(MAX_RUN_ID_CHARS) }).success).toBe(true);
    expect(GetRunInput.safeParse({ runId: 'r'.repeat(MAX_RUN_ID_CHARS + 1) }).success).toBe(false);
    expect(runIdOfUri(`thoughtline://runs/${'r'.repeat(MAX_RUN_ID_CHARS)}`)).toBe('r'.repeat(MAX_RUN_ID_CHARS));
    expect(runIdOfUri(`thoughtline://runs/${'r'.repeat(MAX_RUN_ID_CHARS + 1)}`)).toBeUndefined();
    expect(runIdOfUri('thoughtline://runs/a%2Fb')).toBeUndefined();
    expect(runIdOfUri('thoughtline://runs/%E0%A4%A')).toBeUndefined();
    expect(runIdOfUri('file:///etc/passwd')).toBeUndefined();
  });
});

describe('tool results', () => {
  it('cuts a long answer with a note, and redacts secrets from it', () => {
    expect(cutText('abc', 3, 'x')).toBe('abc');
    expect(cutText('abcd', 3, 'the chain')).toBe('abc\n[cut: 1 more characters; the whole text is in the chain]');
    const secret = `sk-ant-api03-${'Zq9xL2mN4pR7sT1v'.repeat(4)}`;
    const result = {
      success: true,
      finalAnswer: `the key is ${secret}`,
      terminationReason: 'success',
      usage: { inputTokens: 1, outputTokens: 2 },
      costUsd: 0.5,
    } as AgentResult;
    const content = resultContent('run-1', runEnding({ result }), result);
    const text = (content.content[0] as { text: string }).text;
    expect(text).not.toContain(secret);
    expect(text).toContain('the key is');
    expect(content.structuredContent).toMatchObject({
      runId: 'run-1',
      state: 'completed',
      costUsd: 0.5,
      chain: '/v1/runs/run-1/chain',
    });
  });
});
