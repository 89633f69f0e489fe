import { describe, expect, it } from 'vitest';
import { viewerModule } from '../viewer/viewer-module';
import { consensusSummary } from '../../src/domain/model/consensus-summary';
import { renderStepMarkdown } from '../../src/domain/chain/render-chain-markdown';
import { renderStep } from '../../src/cli/render/render-step';
import type { ReasoningStep } from '../../src/domain';

const vote = {
  agreement: 2 / 3,
  unanimous: false,
  majority: '4 km',
  groups: [['fast', 'smart'], ['tiny']],
  groupedBy: ['number', 'set'],
  answers: [
    { model: 'fast', answer: '4 km' },
    { model: 'smart', answer: 'four kilometres' },
    { model: 'tiny', answer: 'Lyon and Paris' },
    { model: 'slow', error: 'ModelTimeout: no reply' },
  ],
};

/** Prose grouped by a consensusJudge, and a judge whose reply was not used. */
const judged = {
  agreement: 2 / 3,
  unanimous: false,
  majority: 'Paris is the capital.',
  groups: [['a', 'b'], ['c']],
  groupedBy: ['judge', 'judge'],
  answers: [
    { model: 'a', answer: 'Paris is the capital.' },
    { model: 'b', answer: 'The capital city is Paris.' },
    { model: 'c', answer: 'Lyon.' },
  ],
};
const unjudged = {
  ...judged,
  agreement: 1 / 3,
  groups: [['a'], ['b'], ['c']],
  groupedBy: ['text', 'text', 'text'],
  judgeProblem: 'the judge\'s reply holds no "groups" list; the rules\' groups stand',
};

describe('consensusSummary: how the models split, in one line', () => {
  it('says which groups the judge model made, and why its grouping was not used', () => {
    expect(consensusSummary(judged)).toBe(
      'agreement 2 of 3 · a, b: "Paris is the capital." (grouped by the judge) · c: "Lyon." (grouped by the judge)',
    );
    expect(consensusSummary(unjudged)).toBe(
      'agreement 1 of 3 · a: "Paris is the capital." (as text) · b: "The capital city is Paris." (as text) · c: "Lyon." (as text) · judge: the judge\'s reply holds no "groups" list; the rules\' groups stand',
    );
  });

  it('names each group, its answer and what it was compared as; failures last', () => {
    expect(consensusSummary(vote)).toBe(
      'agreement 2 of 4 · fast, smart: "4 km" (as a number) · tiny: "Lyon and Paris" (as a set) · failed: slow',
    );
  });

  it('reads results recorded before groupedBy was kept, and cuts long answers', () => {
    const long = 'x'.repeat(200);
    const old = {
      agreement: 1,
      unanimous: true,
      groups: [['a', 'b']],
      answers: [
        { model: 'a', answer: long },
        { model: 'b', answer: long },
      ],
    };
    expect(consensusSummary(old)).toBe(`agreement 2 of 2 (unanimous) · a, b: "${'x'.repeat(60)}…"`);
  });

  it('is undefined for any other result', () => {
    for (const other of ['4', null, { agreement: 'high' }, { value: 5 }, [1, 2]])
      expect(consensusSummary(other)).toBeUndefined();
  });

  it('the terminal and the chain markdown show it instead of the JSON', () => {
    const step: ReasoningStep = {
      type: 'tool_result',
      stepId: 's3',
      stepNumber: 3,
      timestamp: '2026-11-27T00:00:00.000Z',
      visibility: { level: 'full' },
      toolResult: { correlationId: 'toolu_vote', success: true, result: vote, durationMs: 12 },
    } as ReasoningStep;
    expect(renderStep(step)).toContain('fast, smart: "4 km" (as a number)');
    expect(renderStepMarkdown(step)).toContain('**Consensus** agreement 2 of 4');
  });
});

describe('the viewer says the same as the terminal', () => {
  it('consensusText (viewer/consensus-view.js) matches consensusSummary on every shape', async () => {
    const v = await viewerModule<{ consensusText(result: unknown): string | undefined }>('consensus-view.js');
    const old = {
      agreement: 1,
      unanimous: true,
      groups: [['a', 'b']],
      answers: [
        { model: 'a', answer: 'y'.repeat(90) },
        { model: 'b', answer: 'y' },
      ],
    };
    for (const result of [
      vote,
      old,
      judged,
      unjudged,
      '4',
      null,
      { agreement: 2 },
      { agreement: 0.5, groups: [[1]], answers: [] },
    ])
      expect(v.consensusText(result)).toBe(consensusSummary(result));
  });
});
