import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetError, loadDataset, MAX_DATASET_BYTES } from '../../src/eval/dataset';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-dataset-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};

const refusal = (file: string): string => {
  try {
    loadDataset(file);
  } catch (err) {
    expect(err).toBeInstanceOf(DatasetError);
    return (err as Error).message;
  }
  throw new Error(`${file} was accepted`);
};

const line = (c: object): string => JSON.stringify(c);

describe('loadDataset: JSONL', () => {
  it('reads cases with comments and blank lines, their lines, its name and the sha256 of its bytes', () => {
    const text = [
      '# single-tool tasks',
      line({ id: 'weather', task: 'Weather in Paris?', expect: { answer: { match: 'contains', value: 'Paris' } } }),
      '',
      '// budgets',
      line({ id: 'budget', task: 'Spend little', limits: { tokenBudget: 100 }, tags: ['budget'] }),
    ].join('\n');
    const file = write('loop.jsonl', text);
    const loaded = loadDataset(file);
    expect(loaded.name).toBe('loop');
    expect(loaded.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(loaded.cases.map((c) => c.id)).toEqual(['weather', 'budget']);
    expect(loaded.lines).toEqual([2, 5]);
    expect(loaded.cases[0]!.expect.answer).toEqual({ match: 'contains', value: 'Paris', ignoreCase: true });
    expect(loaded.replays).toEqual([]);
  });

  it('names the line and the field of every problem, and refuses duplicate ids', () => {
    const file = write(
      'bad.jsonl',
      [
        line({ id: 'a', task: 'One' }),
        line({ id: 'b', task: 'Two', expect: { answer: { match: 'fuzzy', value: 'x' } } }),
        '{"id": "c", "task": ',
        line({ id: 'a', task: 'Again' }),
        line({ id: 'd', task: 'Four', expect: { tools: { mode: 'exact', calls: [{ tool: '' }] } } }),
        line({ id: 'e f', task: 'Five' }),
        '[1, 2]',
      ].join('\n'),
    );
    const message = refusal(file);
    const lines = message.split('\n');
    expect(lines[0]).toMatch(/^bad\.jsonl:2: expect\.answer\.match: /);
    expect(lines[1]).toMatch(/^bad\.jsonl:3: not JSON( \(column \d+\))?$/);
    expect(lines[2]).toBe('bad.jsonl:4: id: "a" is already the id of the case on line 1');
    expect(lines[3]).toMatch(/^bad\.jsonl:5: expect\.tools\.calls\[0\]\.tool: /);
    expect(lines[4]).toMatch(/^bad\.jsonl:6: id: use letters, digits/);
    expect(lines[5]).toBe('bad.jsonl:7: a case is a JSON object, one per line');
    expect(lines).toHaveLength(6);
  });

  it('checks input against AgentInput and refuses the fields the evaluation sets', () => {
    const file = write(
      'input.jsonl',
      [
        line({ id: 'ok', task: 'T', input: { tools: ['get_weather'], allowQuestions: false } }),
        line({ id: 'task', task: 'T', input: { task: 'Another' } }),
        line({ id: 'fork', task: 'T', input: { fork: {}, continued: {} } }),
        line({ id: 'typed', task: 'T', input: { maxParallelToolCalls: 'four' } }),
        line({ id: 'unknown', task: 'T', input: { toolz: [] } }),
        line({ id: 'limits', task: 'T', input: { maxIterations: 3 } }),
      ].join('\n'),
    );
    const message = refusal(file);
    expect(message).toContain("input.jsonl:2: input.task: a case may not set it: the case's own task");
    expect(message).toContain('input.jsonl:3: input.fork: a case may not set it: AgentClient.fork sets it');
    expect(message).toContain('input.jsonl:3: input.continued: a case may not set it');
    expect(message).toMatch(/input\.jsonl:4: input\.maxParallelToolCalls: .*number/);
    expect(message).toContain("input.jsonl:5: input.toolz: not a field of the run's input (AgentInput)");
    expect(message).toContain(
      'input.jsonl:6: input.maxIterations: a case may not set it: use the case\'s "limits.maxIterations"',
    );
    expect(message).not.toContain('input.jsonl:1');
  });

  it('resolves replay files against the dataset folder and refuses missing ones', () => {
    const recording = write('recordings/weather.jsonl', '{}\n');
    const good = write('replayed.jsonl', line({ id: 'w', task: 'T', replay: 'recordings/weather.jsonl' }));
    expect(loadDataset(good).replays).toEqual([{ id: 'w', recordingFile: recording }]);
    expect(loadDataset(good).cases[0]!.replay).toBe('recordings/weather.jsonl');
    const bad = write('unreplayed.jsonl', line({ id: 'w', task: 'T', replay: 'recordings/missing.jsonl' }));
    expect(refusal(bad)).toBe(
      `unreplayed.jsonl:1: replay: no recording at ${path.join(dir, 'recordings/missing.jsonl')}`,
    );
  });

  it('refuses an empty dataset, a missing file, an unknown extension and an oversized file', () => {
    expect(refusal(write('empty.jsonl', '# nothing yet\n\n'))).toBe(
      'empty.jsonl: no cases: a dataset needs at least one',
    );
    expect(refusal(path.join(dir, 'absent.jsonl'))).toMatch(/^absent\.jsonl: no dataset at /);
    expect(refusal(write('cases.csv', 'id,task\n'))).toMatch(/^cases\.csv: a dataset is a \.jsonl file/);
    const big = write('big.jsonl', `# ${'x'.repeat(MAX_DATASET_BYTES)}\n`);
    expect(refusal(big)).toMatch(/^big\.jsonl: \d+ bytes is over the 4194304-byte limit/);
  });
});

describe('loadDataset: YAML', () => {
  it('reads a list of cases, or a mapping with cases, with each case on its line', () => {
    const list = write(
      'list.yaml',
      ['- id: one', '  task: First', '', '- id: two', '  task: Second', '  tags: [multi-tool]'].join('\n'),
    );
    const loaded = loadDataset(list);
    expect(loaded.cases.map((c) => [c.id, c.tags])).toEqual([
      ['one', []],
      ['two', ['multi-tool']],
    ]);
    expect(loaded.lines).toEqual([1, 4]);
    const mapped = write('mapped.yml', ['# the loop', 'cases:', '  - id: one', '    task: First'].join('\n'));
    expect(loadDataset(mapped).lines).toEqual([3]);
  });

  it("points a problem at its field's own line", () => {
    const file = write(
      'fields.yaml',
      [
        '- id: one',
        '  task: First',
        '- id: two',
        '  task: Second',
        '  expect:',
        '    terminationReason: success',
        '    answer:',
        '      match: fuzzy',
        '      value: x',
        '- id: three',
        '  task: Third',
        '  expect: { recovers: true, forbiddenTool: [x] }',
        '- id: four',
      ].join('\n'),
    );
    const lines = refusal(file).split('\n');
    expect(lines[0]).toMatch(/^fields\.yaml:8: expect\.answer\.match: /);
    expect(lines[1]).toMatch(/^fields\.yaml:12: expect: .*forbiddenTool/);
    expect(lines[2]).toMatch(/^fields\.yaml:13: task: /);
  });

  it('refuses YAML that does not parse, or is not a list', () => {
    expect(refusal(write('broken.yaml', '- id: a\n  task: [unclosed\n'))).toMatch(
      /^broken\.yaml:\d+: not valid YAML: /,
    );
    expect(refusal(write('scalar.yaml', 'just text\n'))).toBe(
      'scalar.yaml:1: expected a list of cases, or a mapping with a "cases" list',
    );
    expect(refusal(write('dupkey.yaml', '- id: a\n  id: b\n  task: T\n'))).toMatch(
      /^dupkey\.yaml:2: not valid YAML: .*[Mm]ap keys must be unique/,
    );
  });
});
