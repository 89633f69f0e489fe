import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetError, loadDataset } from '../../src/eval/dataset';
import { appendCases, type CaseFromRun } from '../../src/eval/from-run';
import { createEvalReplay } from '../../src/eval/replay';

/**
 * Issue 78, defects 8 and 9: `eval add` wrote through a symlinked `recordings/` outside the
 * dataset's folder, and a case's `replay` could name any file (`/proc/self/environ`), read whole
 * and quoted in the parse error. A dataset's files are read and written inside its folder through
 * no symlink, and an error names a file and a line, never what the file holds. Pure file tests:
 * `eval add` (CLI and route) and `eval` call exactly these functions.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-dataset-files-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh folder for one dataset, and a folder beside it that nothing may touch. */
function folders(name: string): { dataset: string; outside: string } {
  const dataset = path.join(root, name, 'evals');
  const outside = path.join(root, name, 'elsewhere');
  fs.mkdirSync(dataset, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  return { dataset, outside };
}

const SECRET = 'ANTHROPIC_API_KEY=sk-ant-not-for-anyone';
const made = (id = 'run-a'): CaseFromRun => ({
  case: {
    id,
    task: 'Where is A-1?',
    expect: { terminationReason: 'success' },
    replay: `recordings/${id}.jsonl`,
    tags: [],
  },
  recordingPath: `recordings/${id}.jsonl`,
  recording: '{"kind":"tool","workflowId":"a","tool":"t","arguments":{},"result":1}\n',
});
const refusalOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('eval add writes inside the dataset folder only', () => {
  it('refuses a symlinked recordings/ and writes nothing, there or outside', () => {
    const { dataset, outside } = folders('linked-recordings');
    fs.symlinkSync(outside, path.join(dataset, 'recordings'));
    const file = path.join(dataset, 'prod.jsonl');
    const error = refusalOf(() => appendCases(file, [made()]));
    expect(error).toMatch(/recordings: a symlink, which is not followed here/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('refuses a recording that is a symlink, and a dataset file that is one', () => {
    const { dataset, outside } = folders('linked-files');
    fs.mkdirSync(path.join(dataset, 'recordings'));
    const target = path.join(outside, 'target.jsonl');
    fs.writeFileSync(target, '');
    fs.symlinkSync(target, path.join(dataset, 'recordings/run-a.jsonl'));
    expect(() => appendCases(path.join(dataset, 'prod.jsonl'), [made()])).toThrow(DatasetError);
    expect(fs.readFileSync(target, 'utf8')).toBe('');
    const linked = path.join(dataset, 'linked.jsonl');
    fs.symlinkSync(target, linked);
    expect(refusalOf(() => appendCases(linked, [made('run-b')]))).toMatch(/linked\.jsonl: a symlink/);
    expect(fs.readFileSync(target, 'utf8')).toBe('');
    expect(fs.existsSync(path.join(dataset, 'recordings/run-b.jsonl'))).toBe(false);
  });
});

describe("a case's replay stays inside the dataset's folder, and is never quoted", () => {
  const { dataset, outside } = folders('replays');
  fs.writeFileSync(path.join(outside, 'secret.jsonl'), `${SECRET}\n`);
  fs.mkdirSync(path.join(dataset, 'recordings'));
  fs.symlinkSync(path.join(outside, 'secret.jsonl'), path.join(dataset, 'recordings/link.jsonl'));
  fs.symlinkSync(outside, path.join(dataset, 'out'));

  const withReplay = (name: string, replay: string) => {
    const file = path.join(dataset, `${name}.jsonl`);
    fs.writeFileSync(file, `# a case that replays ${name}\n${JSON.stringify({ id: 'c', task: 'T', replay })}\n`);
    return file;
  };

  it.each([
    ['environ', '/proc/self/environ', /replay: the recording is refused: an absolute path/],
    ['absolute', path.join(outside, 'secret.jsonl'), /replay: the recording is refused: an absolute path/],
    ['parent', '../elsewhere/secret.jsonl', /replay: the recording is refused: the path steps out with "\.\."/],
    ['link', 'recordings/link.jsonl', /replay: the recording .*recordings\/link\.jsonl is refused: a symlink/],
    ['folder-link', 'out/secret.jsonl', /replay: the recording .*evals\/out is refused: a symlink/],
  ])('refuses %s, naming the line, never the content', (name, replay, why) => {
    const error = refusalOf(() => loadDataset(withReplay(name, replay)));
    expect(error).toMatch(new RegExp(`^${name}\\.jsonl:2: `));
    expect(error).toMatch(why);
    expect(error).not.toContain('sk-ant');
    expect(error).not.toMatch(/PATH=|HOME=/);
  });

  it('a recording inside the folder that is not one is named by file and line, its bytes not quoted', () => {
    const recording = path.join(dataset, 'recordings/not-a-recording.jsonl');
    fs.writeFileSync(recording, `${SECRET}\n`);
    const loaded = loadDataset(withReplay('inside', 'recordings/not-a-recording.jsonl'));
    const error = refusalOf(() =>
      createEvalReplay({ evaluationId: 'e', cases: loaded.replays, folder: path.dirname(loaded.file) }),
    );
    expect(error).toBe(`${recording}:1 is not JSON`);
    fs.writeFileSync(recording, '{"kind":"tool","tool":"t","note":"ANTHROPIC_API_KEY=sk-ant-x"}\n');
    const again = refusalOf(() => createEvalReplay({ evaluationId: 'e', cases: loaded.replays }));
    expect(again).toMatch(/not-a-recording\.jsonl:1 is not a recorded tool call \(/);
    expect(again).not.toContain('sk-ant');
  });
});
