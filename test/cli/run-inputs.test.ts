import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/spec/command-line';
import { COMMANDS } from '../../src/cli/commands';
import { helpOf } from '../../src/cli/commands';
import { runExtras } from '../../src/cli/run-inputs/run-extras';
import { readingFileTools } from '../../src/cli/setup/runtime';
import { cutUtf8 } from '../../src/cli/run-inputs/cut-utf8';
import { readContextData, MAX_CONTEXT_DATA_FILE_BYTES } from '../../src/cli/run-inputs/read-context-data';
import { contextFileNames, readContextFiles } from '../../src/cli/run-inputs/read-context-files';
import { readRunInputs } from '../../src/cli/run-inputs/read-run-inputs';
import { MAX_WORKFLOW_FILE_BYTES, parseWorkflowText, readWorkflow } from '../../src/cli/run-inputs/read-workflow-file';
import { UsageError } from '../../src/cli/spec/usage-error';
import {
  MAX_CONTEXT_BYTES,
  MAX_CONTEXT_DATA_BYTES,
  MAX_CONTEXT_FILE_BYTES,
  MAX_CONTEXT_FILES,
} from '../../src/domain/run/agent-context';
import { AgentInput } from '../../src/domain';
import { PROJECT_ROOT } from '../helpers/cli-process';

let dir: string;
let root: string;
const write = (name: string, content: string | Buffer): string => {
  const file = path.join(root, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};
const refusal = async (p: Promise<unknown> | (() => unknown)): Promise<string> => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-inputs-'));
  root = path.join(dir, 'root');
  fs.mkdirSync(root);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('run --files', () => {
  it('takes comma-separated names and repeated options alike', () => {
    expect(contextFileNames(['a.py,b.md', ' c.txt ', ''])).toEqual(['a.py', 'b.md', 'c.txt']);
    const parsed = parseCommandLine(['run', 'goal', '--files', 'a.py,b.md', '--files', 'c.txt'], COMMANDS);
    expect(parsed.kind === 'command' && parsed.line.texts('files')).toEqual(['a.py,b.md', 'c.txt']);
  });

  it('reads files relative to the root, with their size', async () => {
    const auth = 'def login(user, password):\n    return check(user, password)\n';
    write('auth.py', auth);
    write('docs/notes.md', '# Notes\n');
    const files = await readContextFiles(['auth.py', 'docs/notes.md'], root);
    expect(files).toEqual([
      { name: 'auth.py', content: auth, bytes: Buffer.byteLength(auth), truncated: false },
      { name: 'docs/notes.md', content: '# Notes\n', bytes: 8, truncated: false },
    ]);
  });

  it('keeps a file of exactly MAX_CONTEXT_FILE_BYTES whole and cuts one byte more, on a character boundary', async () => {
    write('exact.txt', 'a'.repeat(MAX_CONTEXT_FILE_BYTES));
    const [exact] = await readContextFiles(['exact.txt'], root);
    expect(exact).toMatchObject({ truncated: false, bytes: MAX_CONTEXT_FILE_BYTES });
    expect(exact!.content.length).toBe(MAX_CONTEXT_FILE_BYTES);
    // "é" is two bytes: the one straddling the bound is dropped whole, not split.
    write('long.txt', `${'a'.repeat(MAX_CONTEXT_FILE_BYTES - 1)}é`);
    const [long] = await readContextFiles(['long.txt'], root);
    expect(long).toMatchObject({ truncated: true, bytes: MAX_CONTEXT_FILE_BYTES + 1 });
    expect(long!.content).toBe('a'.repeat(MAX_CONTEXT_FILE_BYTES - 1));
    expect(long!.content).not.toContain('\uFFFD');
  });

  it('cuts UTF-8 only between characters', () => {
    const bytes = Buffer.from('a€b'); // € is 3 bytes
    expect(cutUtf8(bytes, 1).toString()).toBe('a');
    expect(cutUtf8(bytes, 2).toString()).toBe('a');
    expect(cutUtf8(bytes, 3).toString()).toBe('a');
    expect(cutUtf8(bytes, 4).toString()).toBe('a€');
    expect(cutUtf8(bytes, 5)).toBe(bytes);
  });

  it('refuses paths out of the root, through a symlink too, naming the file', async () => {
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'secret plans');
    fs.symlinkSync(path.join(dir, 'outside.txt'), path.join(root, 'link.txt'));
    expect(await refusal(readContextFiles(['../outside.txt'], root))).toMatch(/^--files \.\.\/outside\.txt: .*"\.\."/);
    expect(await refusal(readContextFiles([path.join(dir, 'outside.txt')], root))).toMatch(/outside the root/);
    expect(await refusal(readContextFiles(['link.txt'], root))).toMatch(/^--files link\.txt: .*outside the root/);
  });

  it('refuses a missing file, a binary file, a directory and a name given twice', async () => {
    expect(await refusal(readContextFiles(['nope.py'], root))).toBe(
      `--files nope.py: no such file under --files-root ${root}. Names are relative to --files-root.`,
    );
    write('image.bin', Buffer.from([0x89, 0x50, 0x00, 0x47]));
    expect(await refusal(readContextFiles(['image.bin'], root))).toMatch(/--files image\.bin: a binary file/);
    expect(await refusal(readContextFiles(['docs'], root))).toMatch(/--files docs: .*directory|not a regular file/);
    expect(await refusal(readContextFiles(['auth.py', 'auth.py'], root))).toBe('--files names auth.py twice.');
  });

  it(`takes ${MAX_CONTEXT_FILES} files and refuses one more`, async () => {
    const names = Array.from({ length: MAX_CONTEXT_FILES + 1 }, (_, i) => `many/f${i}.txt`);
    names.forEach((n) => write(n, 'x'));
    expect(await readContextFiles(names.slice(0, MAX_CONTEXT_FILES), root)).toHaveLength(MAX_CONTEXT_FILES);
    expect(await refusal(readContextFiles(names, root))).toBe(
      `--files names ${MAX_CONTEXT_FILES + 1} files; a run takes at most ${MAX_CONTEXT_FILES}.`,
    );
  });

  it(`refuses files past ${MAX_CONTEXT_BYTES} bytes together, naming the one that passes it`, async () => {
    const count = Math.floor(MAX_CONTEXT_BYTES / MAX_CONTEXT_FILE_BYTES);
    const names = Array.from({ length: count + 1 }, (_, i) => `big/f${i}.txt`);
    names.forEach((n) => write(n, 'b'.repeat(MAX_CONTEXT_FILE_BYTES)));
    expect(await readContextFiles(names.slice(0, count), root)).toHaveLength(count);
    expect(await refusal(readContextFiles(names, root))).toMatch(
      new RegExp(`^--files: with big/f${count}\\.txt the files come to more than ${MAX_CONTEXT_BYTES} bytes`),
    );
  });
});

describe('run --context', () => {
  it('takes a JSON object inline or from @FILE', () => {
    expect(readContextData('{"file": "auth.py", "error": "..."}')).toEqual({ file: 'auth.py', error: '...' });
    const file = path.join(dir, 'context.json');
    fs.writeFileSync(file, '{\n  "repo_path": "/src/app"\n}\n');
    expect(readContextData(`@${file}`)).toEqual({ repo_path: '/src/app' });
  });

  it('refuses what is not a JSON object, strictly', async () => {
    expect(await refusal(() => readContextData('[1, 2]'))).toBe('--context: a JSON object is expected, not an array.');
    expect(await refusal(() => readContextData('null'))).toBe('--context: a JSON object is expected, not null.');
    expect(await refusal(() => readContextData("{file: 'auth.py'}"))).toMatch(/^--context: not JSON/);
    expect(await refusal(() => readContextData('@/no/such/context.json'))).toBe(
      '--context @/no/such/context.json: cannot be read (ENOENT).',
    );
  });

  it(`takes data of exactly ${MAX_CONTEXT_DATA_BYTES} bytes as JSON and refuses one more`, async () => {
    const padding = MAX_CONTEXT_DATA_BYTES - JSON.stringify({ k: '' }).length;
    const atLimit = JSON.stringify({ k: 'x'.repeat(padding) });
    expect(atLimit.length).toBe(MAX_CONTEXT_DATA_BYTES);
    expect(readContextData(atLimit)).toEqual({ k: 'x'.repeat(padding) });
    const past = JSON.stringify({ k: 'x'.repeat(padding + 1) });
    expect(await refusal(() => readContextData(past))).toBe(
      `--context: ${MAX_CONTEXT_DATA_BYTES + 1} bytes as JSON; context data is at most ${MAX_CONTEXT_DATA_BYTES}.`,
    );
    const file = path.join(dir, 'huge.json');
    fs.writeFileSync(file, ' '.repeat(MAX_CONTEXT_DATA_FILE_BYTES + 1));
    expect(await refusal(() => readContextData(`@${file}`))).toMatch(/a context file is read up to/);
  });
});

describe('run --workflow', () => {
  const yaml = (name: string, text: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('reads a YAML workflow and the shipped example', () => {
    const file = yaml(
      'ok.yaml',
      'name: w\nsteps:\n  - id: a\n    description: First\n  - id: b\n    description: Then\n    after: [a]\n    tools: [files_read]\n    approval: true\n',
    );
    expect(readWorkflow(file)).toEqual({
      name: 'w',
      steps: [
        { id: 'a', description: 'First', after: [], approval: false },
        { id: 'b', description: 'Then', after: ['a'], tools: ['files_read'], approval: true },
      ],
    });
    const example = readWorkflow(path.join(PROJECT_ROOT, 'examples/workflows/fix-bug.yaml'));
    expect(example.steps.map((s) => s.id)).toEqual(['read', 'diagnose', 'propose', 'report']);
  });

  it('reads JSON strictly, with the line of a syntax error', async () => {
    const good = yaml('ok.json', JSON.stringify({ name: 'j', steps: [{ id: 'a', description: 'Do it' }] }, null, 2));
    expect(readWorkflow(good).name).toBe('j');
    const bad = yaml('bad.json', '{\n  "name": "j",\n  "steps": [,]\n}\n');
    expect(await refusal(() => readWorkflow(bad))).toMatch(
      /^--workflow .*bad\.json cannot be run:\nbad\.json:3: not valid JSON/,
    );
    // YAML would read this; JSON does not.
    expect(await refusal(() => parseWorkflowText("{'name': 'j', 'steps': []}", 'q.json', true))).toMatch(
      /\nq\.json:1: not valid JSON/,
    );
  });

  it('gives the line of a YAML syntax error', async () => {
    expect(
      await refusal(() => parseWorkflowText('name: w\nsteps:\n  - id: a\n   description: [oops\n', 'w.yaml', false)),
    ).toMatch(/\nw\.yaml:4: not valid YAML/);
  });

  it('names an unknown dependency with its line and field', async () => {
    const text =
      'name: w\nsteps:\n  - id: a\n    description: A\n  - id: b\n    description: B\n    after:\n      - a\n      - c\n';
    expect(await refusal(() => parseWorkflowText(text, 'w.yaml', false))).toBe(
      '--workflow w.yaml cannot be run:\nw.yaml:9: steps[1].after[1]: Step "b" depends on "c", which is not a step of this workflow (steps: a, b).',
    );
  });

  it('names a cycle', async () => {
    const text =
      'name: w\nsteps:\n  - id: a\n    description: A\n    after: [b]\n  - id: b\n    description: B\n    after: [a]\n';
    expect(await refusal(() => parseWorkflowText(text, 'w.yaml', false))).toBe(
      '--workflow w.yaml cannot be run:\nw.yaml:5: steps[0].after: The steps depend on each other in a cycle: a → b → a.',
    );
  });

  it('lists every schema problem with its line, a missing field at its parent', async () => {
    const text = 'name: w\nsteps:\n  - id: a\n  - id: 2bad\n    description: B\n    colour: red\n';
    const message = await refusal(() => parseWorkflowText(text, 'w.yaml', false));
    expect(message).toMatch(/\nw\.yaml:3: steps\[0\]\.description: /);
    expect(message).toMatch(/\nw\.yaml:4: steps\[1\]\.id: A step id is a name/);
    expect(message).toMatch(/\nw\.yaml:4: steps\[1\]: .*colour/);
    expect(await refusal(() => parseWorkflowText('- a\n- b\n', 'w.yaml', false))).toMatch(
      /w\.yaml:1: a workflow is a mapping/,
    );
  });

  it(`reads a file of ${MAX_WORKFLOW_FILE_BYTES} bytes and refuses one byte more, before parsing`, async () => {
    const body = 'name: w\nsteps:\n  - id: a\n    description: A\n';
    const atLimit = yaml('at.yaml', body + '#'.repeat(MAX_WORKFLOW_FILE_BYTES - body.length - 1) + '\n');
    expect(fs.statSync(atLimit).size).toBe(MAX_WORKFLOW_FILE_BYTES);
    expect(readWorkflow(atLimit).name).toBe('w');
    const past = yaml('past.yaml', body + '#'.repeat(MAX_WORKFLOW_FILE_BYTES - body.length) + '\n');
    expect(await refusal(() => readWorkflow(past))).toBe(
      `--workflow ${past}: the file is ${MAX_WORKFLOW_FILE_BYTES + 1} bytes; a workflow file is at most ${MAX_WORKFLOW_FILE_BYTES}.`,
    );
  });

  it('knows the three built-in workflows, each step after the one before', async () => {
    const debug = readWorkflow('debug_bug');
    expect(debug.description).toBe('Systematically debug and fix a bug');
    expect(debug.steps.map((s) => s.description)[0]).toBe('Reproduce the bug');
    expect(debug.steps[1]).toMatchObject({ id: 'read_relevant_code_files', after: ['reproduce_the_bug'] });
    expect(readWorkflow('implement_feature').steps).toHaveLength(8);
    expect(readWorkflow('refactor_code').steps).toHaveLength(6);
    expect(await refusal(() => readWorkflow('debug_bugs'))).toMatch(
      /built-in workflow: debug_bug, implement_feature, refactor_code/,
    );
  });

  it('sets planning.workflow, and refuses --template beside it', async () => {
    const workflow = readWorkflow('debug_bug');
    const extra = runExtras({ workflow });
    expect(extra.planning).toEqual({ workflow });
    expect(AgentInput.parse({ task: 't', ...extra }).planning?.workflow?.name).toBe('debug_bug');
    expect(await refusal(() => runExtras({ workflow, template: 'debug_bug' }))).toBe(
      '--workflow and --template both give the plan its steps; give one of them.',
    );
  });
});

describe('run with the new inputs', () => {
  it('assembles context and root; with no flags, nothing', async () => {
    expect(await readRunInputs({})).toEqual({});
    const inputs = await readRunInputs({ files: ['auth.py'], filesRoot: root, context: '{"error": "500"}' });
    expect(inputs.filesRoot).toBe(root);
    expect(inputs.context).toMatchObject({ data: { error: '500' }, files: [{ name: 'auth.py', truncated: false }] });
  });

  it('takes the goal from the workflow when none is given, and documents the flags', async () => {
    const parsed = parseCommandLine(['run', '--workflow', 'no-such.yaml'], COMMANDS);
    if (parsed.kind !== 'command') throw new Error('not a command');
    expect(await refusal(parsed.command.run(parsed.line))).toMatch(/--workflow no-such\.yaml: no such file/);
    const none = parseCommandLine(['run'], COMMANDS);
    if (none.kind !== 'command') throw new Error('not a command');
    expect(await refusal(none.command.run(none.line))).toMatch(/^"run" needs a task/);
    for (const flag of ['--files', '--files-root', '--context', '--workflow']) expect(helpOf('run')).toContain(flag);
  });
});

describe('the CLI worker file tools for run --files', () => {
  it('are the reading ones only', () => {
    expect(readingFileTools('/tmp').map((t) => t.name)).toEqual(['files_read', 'files_list', 'files_search']);
  });
});
