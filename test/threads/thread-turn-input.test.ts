import { describe, expect, it } from 'vitest';
import { AgentContext, MAX_CONTEXT_DATA_BYTES } from '../../src/domain/run/agent-context';
import { utf8Bytes } from '../../src/domain/run/payload-size';
import { MAX_THREAD_TEXT_CHARS, type ThreadTurnRecord } from '../../src/domain/threads/thread-schemas';
import { takeTurn, emptyThreadState, settleTurn, turnRefusal } from '../../src/workflows/threads/thread-state';
import { earlierTurns, turnRunInput } from '../../src/workflows/threads/thread-turn-input';

const record = (turn: number, answer: string): ThreadTurnRecord => ({
  turn,
  turnId: `t${turn}`,
  runId: `run-${turn}`,
  user: `question ${turn}`,
  answer,
  status: 'completed',
});
const bytesOf = (thread: unknown[]) => utf8Bytes(JSON.stringify({ thread }));

describe('the earlier turns a turn run is given', () => {
  it('keeps every turn while { thread } fits MAX_CONTEXT_DATA_BYTES exactly, and cuts the oldest one byte past it', () => {
    const turns = [record(1, 'a'), record(2, 'b'), record(3, 'c')];
    const all = earlierTurns(turns, Number.MAX_SAFE_INTEGER);
    const exact = bytesOf(all);
    // Pad the newest answer so the whole is exactly at the bound.
    const padded = [...turns.slice(0, 2), record(3, 'c'.repeat(1 + MAX_CONTEXT_DATA_BYTES - exact))];
    const atBound = earlierTurns(padded);
    expect(bytesOf(atBound)).toBe(MAX_CONTEXT_DATA_BYTES);
    expect(atBound.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(AgentContext.safeParse({ data: { thread: atBound } }).success).toBe(true);

    const over = [...turns.slice(0, 2), record(3, 'c'.repeat(2 + MAX_CONTEXT_DATA_BYTES - exact))];
    const cut = earlierTurns(over);
    expect(cut.map((t) => t.turn)).toEqual([2, 3]);
    expect(bytesOf(cut)).toBeLessThanOrEqual(MAX_CONTEXT_DATA_BYTES);
  });

  it('leaves out a newest turn too large alone, and gives no context before the first turn', () => {
    expect(earlierTurns([record(1, 'x'.repeat(MAX_CONTEXT_DATA_BYTES))])).toEqual([]);
    const start = {
      threadId: 't',
      owner: { id: 'ada', roles: [], tenant: 'acme' },
      agent: { agent: 'researcher' },
      allowQuestions: true,
    };
    expect(turnRunInput(start, { text: 'hi', by: start.owner }, [])).toEqual({
      task: 'hi',
      agent: 'researcher',
      agentName: 'researcher',
      caller: start.owner,
      allowQuestions: true,
    });
    expect(turnRunInput(start, { text: 'again', by: start.owner }, [record(1, 'ok')]).context).toEqual({
      data: { thread: [{ turn: 1, user: 'question 1', answer: 'ok', status: 'completed' }] },
      files: [],
    });
  });
});

describe('who a turn runs as', () => {
  const keys = { publicKeys: { k1: 'PUBLIC-KEY' } };
  const start = {
    threadId: 't',
    owner: { id: 'ada', roles: ['admin'], tenant: 'acme' },
    agent: { agentName: 'agent' },
    allowQuestions: true,
    signedDecisions: { publicKeys: { old: 'OLD-KEY' } },
  };

  it("takes the turn's own roles and signature requirement, never the first turn's", () => {
    const demoted = { id: 'ada', roles: ['viewer'], tenant: 'acme' };
    const input = turnRunInput(start, { text: 'next', by: demoted, signedDecisions: keys }, []);
    expect(input.caller).toEqual(demoted);
    expect(input.signedDecisions).toEqual(keys);
  });

  it('runs without signed decisions when the server no longer requires them', () => {
    const input = turnRunInput(start, { text: 'next', by: start.owner }, []);
    expect(input.signedDecisions).toBeUndefined();
  });
});

describe('thread state', () => {
  const owner = { id: 'ada', roles: [], tenant: 'acme' };
  it('cuts kept text to MAX_THREAD_TEXT_CHARS and refuses by owner, then by a running turn', () => {
    const long = 'é'.repeat(MAX_THREAD_TEXT_CHARS + 1);
    const taken = takeTurn(emptyThreadState('t'), { turnId: 'a', text: long, by: owner }, (n) => `r${n}`, 1);
    expect(taken.record.user).toHaveLength(MAX_THREAD_TEXT_CHARS);
    expect(turnRefusal(taken.state, owner, { turnId: 'b', text: 'x', by: { ...owner, tenant: undefined } })).toMatch(
      /another caller/,
    );
    expect(turnRefusal(taken.state, owner, { turnId: 'b', text: 'x', by: owner })).toMatch(/Turn 1 is still running/);
    expect(turnRefusal(taken.state, owner, { turnId: 'a', text: 'x', by: owner })).toBeUndefined();
    const ended = settleTurn(taken.state, 1, { status: 'completed', answer: long }, 2);
    expect(ended.turns[0]!.answer).toHaveLength(MAX_THREAD_TEXT_CHARS);
    expect(turnRefusal(ended, owner, { turnId: 'b', text: 'x', by: owner })).toBeUndefined();
  });
});
