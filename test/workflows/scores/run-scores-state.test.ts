import { describe, expect, it } from 'vitest';
import {
  MAX_SCORES_PER_RUN,
  type AddRunScoreRequest,
  type RunScoresState,
} from '../../../src/domain/evaluation/run-scores';
import { runScoresWorkflowId } from '../../../src/workflows/scores/run-scores-messages';
import { addScore, emptyRunScoresState, idleLeft, scoreRefusal } from '../../../src/workflows/scores/run-scores-state';

const score = (name: string, by: string, value = 1): AddRunScoreRequest => ({ name, value, by });

describe('run scores state (pure)', () => {
  it('keeps one score per name and person: a second replaces the first and goes last; another person adds', () => {
    let state = emptyRunScoresState('agent-1');
    state = addScore(state, score('accepted', 'alice', 1), 1_000).state;
    state = addScore(state, score('csat', 'alice', 4), 2_000).state;
    const again = addScore(state, score('accepted', 'alice', 0), 3_000);
    expect(again.result).toMatchObject({
      score: { value: 0, at: '1970-01-01T00:00:03.000Z' },
      replaced: { value: 1 },
      count: 2,
    });
    expect(again.state.scores.map((s) => `${s.name}/${s.by}=${s.value}`)).toEqual(['csat/alice=4', 'accepted/alice=0']);
    const other = addScore(again.state, score('accepted', 'bob', 1), 4_000);
    expect(other.result.replaced).toBeUndefined();
    expect(other.state.scores).toHaveLength(3);
    expect(other.state.lastScoredAt).toBe(4_000);
    // The old state is untouched: transitions return new states.
    expect(state.scores).toHaveLength(2);
  });

  it('refuses a new score at the limit, but not a replacement', () => {
    const full: RunScoresState = {
      ...emptyRunScoresState('agent-1'),
      scores: Array.from({ length: MAX_SCORES_PER_RUN }, (_, i) => ({ name: `s${i}`, value: i, by: 'seed', at: 'x' })),
    };
    expect(scoreRefusal(full, score('new', 'seed'))).toMatch(/already has 200 scores/);
    expect(scoreRefusal(full, score('s3', 'seed'))).toBeUndefined();
    expect(scoreRefusal({ ...full, scores: full.scores.slice(1) }, score('new', 'seed'))).toBeUndefined();
  });

  it('measures idleness from the later of the execution start and the last score', () => {
    const state = emptyRunScoresState('agent-1');
    expect(idleLeft(state, 1_000, 1_500, 10_000)).toBe(9_500);
    expect(idleLeft({ ...state, lastScoredAt: 5_000 }, 1_000, 6_000, 10_000)).toBe(9_000);
    // Carried scores from long ago: the fresh execution still waits its whole idle time.
    expect(idleLeft({ ...state, lastScoredAt: 5 }, 1_000, 1_000, 10_000)).toBe(10_000);
  });

  it('derives a readable workflow id from a plain run id, and a hashed one that never merges two runs', () => {
    expect(runScoresWorkflowId('agent-6f1c')).toBe('thoughtline-scores-agent-6f1c');
    const child = runScoresWorkflowId('agent-1/research-2');
    expect(child).toMatch(/^thoughtline-scores-agent-1_research-2-[0-9a-f]{8}$/);
    expect(child).not.toBe(runScoresWorkflowId('agent-1_research-2'));
    expect(runScoresWorkflowId('a'.repeat(500)).length).toBeLessThan(240);
  });
});
