import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { COMMANDS } from '../../src/cli/commands';
import { progressLine } from '../../src/cli/commands/evaluation/evaluate';
import { evaluationInput, evaluationVariants, variantId } from '../../src/cli/commands/evaluation/eval-input';
import { readEvalOptions } from '../../src/cli/commands/evaluation/eval-options';
import { LOCAL_MODEL } from '../../src/cli/setup/local-model-setup';
import { UsageError } from '../../src/cli/spec/usage-error';
import { loadConfig } from '../../src/config';
import { loadDataset } from '../../src/eval/dataset';
import { MAX_EVAL_UNITS } from '../../src/domain/evaluation';

const options = (...argv: string[]) => {
  const parsed = parseCommandLine(['eval', ...argv], COMMANDS);
  if (parsed.kind !== 'command') throw new Error('help');
  return readEvalOptions(parsed.line);
};
const refusal = (...argv: string[]): string => {
  try {
    options(...argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`eval ${argv.join(' ')} was accepted`);
};

const config = loadConfig({});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-eval-options-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('eval: the command line', () => {
  it('reads repeatable models, agents and scorers, numbers, budgets and paths', () => {
    expect(
      options(
        'loop.jsonl',
        '--model',
        'claude-sonnet-4-6',
        '--model',
        'local',
        '--agent',
        'support',
        '--repeat',
        '3',
        '--concurrency',
        '8',
        '--budget-usd',
        '2.5',
        '--budget-tokens',
        '500000',
        '--judge',
        'claude-opus-4-1',
        '--scorer',
        'polite',
        '--scorer',
        'cites_sources',
        '--tools',
        'tools.js',
        '--out',
        'out',
        '--baseline',
        'base.json',
        '--baseline-any-dataset',
        '--json',
      ),
    ).toEqual({
      dataset: 'loop.jsonl',
      models: ['claude-sonnet-4-6', 'local'],
      agents: ['support'],
      repeat: 3,
      concurrency: 8,
      budgetUsd: 2.5,
      budgetTokens: 500_000,
      judge: 'claude-opus-4-1',
      scorers: ['polite', 'cites_sources'],
      tools: 'tools.js',
      out: 'out',
      baseline: 'base.json',
      baselineAnyDataset: true,
      noWorker: false,
      json: true,
    });
    expect(options('loop.yaml', '--no-worker', '--resume', 'eval-loop-1234abcd')).toMatchObject({
      models: [],
      agents: [],
      scorers: [],
      noWorker: true,
      resume: 'eval-loop-1234abcd',
    });
  });

  it('refuses mistakes with what was meant, before anything connects', () => {
    expect(() => parseCommandLine(['eval'], COMMANDS)).toThrow(
      '"eval" needs a dataset, e.g. thoughtline eval eval/loop.jsonl.',
    );
    expect(() => parseCommandLine(['eval', 'a.jsonl', '--repaet', '3'], COMMANDS)).toThrow(
      'unknown option --repaet; did you mean --repeat?',
    );
    expect(refusal('a.jsonl', '--repeat', '0')).toBe('--repeat takes a positive whole number up to 100, not "0".');
    expect(refusal('a.jsonl', '--repeat', '101')).toBe('--repeat takes a positive whole number up to 100, not "101".');
    expect(refusal('a.jsonl', '--concurrency', '1.5')).toBe(
      '--concurrency takes a positive whole number up to 256, not "1.5".',
    );
    expect(refusal('a.jsonl', '--budget-usd=-1')).toBe(
      '--budget-usd takes a positive amount of US dollars, e.g. 2.50, not "-1".',
    );
    expect(refusal('a.jsonl', '--budget-tokens', 'lots')).toMatch(/^--budget-tokens takes a positive whole number/);
    expect(refusal('a.jsonl', '--model', 'm', '--model', 'm')).toBe(
      '--model m is given twice; each makes a variant once.',
    );
    expect(refusal('a.jsonl', '--agent', 'not an id')).toMatch(/^--agent "not an id": /);
    expect(refusal('a.jsonl', '--baseline-any-dataset')).toBe('--baseline-any-dataset goes with --baseline FILE.');
    expect(refusal('a.jsonl', '--no-worker', '--tools', 't.js')).toMatch(
      /^--tools serves tools on this process's own worker/,
    );
    expect(refusal('a.jsonl', '--out', ' ')).toBe('--out needs a value.');
  });
});

describe('eval: variants and the evaluation input', () => {
  it('no --model: one variant with the configured model', () => {
    expect(evaluationVariants(options('a.jsonl'), config)).toEqual([
      { id: 'claude-sonnet-4-6', model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } },
    ]);
  });

  it('each --model × each --agent is a variant, with ids workflow ids can hold', () => {
    const variants = evaluationVariants(
      options(
        'a.jsonl',
        '--model',
        'openai-compatible/qwen3:8b',
        '--model',
        'local',
        '--agent',
        'support',
        '--agent',
        'triage',
      ),
      config,
    );
    expect(variants.map((v) => v.id)).toEqual([
      'support.openai-compatible-qwen3-8b',
      'support.local',
      'triage.openai-compatible-qwen3-8b',
      'triage.local',
    ]);
    expect(variants[0]!.model).toEqual({ provider: 'openai-compatible', model: 'qwen3:8b' });
    expect(variants[1]!.model).toEqual(LOCAL_MODEL);
    expect(variants[2]!.agent).toBe('triage');
    expect(evaluationVariants(options('a.jsonl', '--agent', 'support'), config).map((v) => v.id)).toEqual(['support']);
    expect(variantId('a/b c'.repeat(20))).toHaveLength(64);
  });

  it('builds the input from the dataset and the options, and refuses too many runs', () => {
    const file = path.join(dir, 'loop.jsonl');
    fs.writeFileSync(file, '{"id":"a","task":"One"}\n{"id":"b","task":"Two"}\n');
    const dataset = loadDataset(file);
    const input = evaluationInput(
      dataset,
      options(
        file,
        '--model',
        'm1',
        '--model',
        'm2',
        '--repeat',
        '2',
        '--budget-usd',
        '1',
        '--judge',
        'claude-opus-4-1',
        '--scorer',
        'polite',
      ),
      config,
    );
    expect(input).toMatchObject({
      schemaVersion: 1,
      name: 'loop',
      dataset: { name: 'loop', sha256: dataset.sha256 },
      repeat: 2,
      concurrency: 4,
      budget: { costUsd: 1 },
      judge: { model: { provider: 'anthropic', model: 'claude-opus-4-1' } },
      scorers: ['polite'],
    });
    expect(input.cases.map((c) => c.id)).toEqual(['a', 'b']);
    expect(input.variants.map((v) => v.id)).toEqual(['m1', 'm2']);
    const tooMany = Math.floor(MAX_EVAL_UNITS / 2 / 100) + 1;
    const models = Array.from({ length: tooMany }, (_, i) => ['--model', `m${i}`]).flat();
    expect(() => evaluationInput(dataset, options(file, '--repeat', '100', ...models), config)).toThrow(
      `2 cases × ${tooMany} variants × 100 repeats is ${2 * tooMany * 100} runs; at most ${MAX_EVAL_UNITS}: split the dataset or run fewer variants.`,
    );
  });

  it('prints progress as one line per change', () => {
    expect(
      progressLine({
        total: 48,
        done: 12,
        running: 2,
        skipped: 1,
        passed: 10,
        spent: { costUsd: 0.01234, tokens: 4512 },
      }),
    ).toBe('12/48 done, 2 running, 1 skipped, 10 passed; $0.0123, 4,512 tokens');
  });
});
