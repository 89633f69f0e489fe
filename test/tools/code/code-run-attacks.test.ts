import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodeRunTool } from '../../../src/tools/builtin/code';
import { ToolError } from '../../../src/tools/tool-error';
import { scratchTree, snapshot } from '../files/file-tools-helpers';
import { execute } from './code-run-helpers';

let tree: ReturnType<typeof scratchTree>;
afterEach(() => tree?.cleanup());

const js = (code: string, files?: string[]) => ({ language: 'javascript', code, ...(files ? { files } : {}) });

/** The message of a call that must fail with a final ToolError (a limit the process was stopped at). */
async function stopped(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (ToolError.is(err) && !err.retryable) return err.message;
    throw err;
  }
  throw new Error('the call was not stopped');
}

describe('code_run attacks (JavaScript)', () => {
  it('a naive sandbox lets the constructor chain reach the host; code_run does not', async () => {
    const escape = 'this.constructor.constructor("return process")()';
    // The negative control: node:vm is not a security boundary.
    expect(vm.runInNewContext(`(${escape}).pid`)).toBe(process.pid);
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root });
    const result = await execute(tool, js(escape));
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/'process' is not defined/) });
    for (const probe of ['require("fs")', 'import("fs")', 'fetch("http://example.com")', 'new Worker("x")']) {
      const answer = await execute(tool, js(probe));
      expect(answer.ok, probe).toBe(false);
    }
    expect(
      (
        await execute(
          tool,
          js('[typeof process, typeof require, typeof fetch, typeof Worker, typeof std, typeof os].join()'),
        )
      ).value,
    ).toBe('undefined,undefined,undefined,undefined,undefined,undefined');
  });

  it('an infinite loop stops at the CPU limit, even one that catches everything', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root, cpuMs: 300 });
    const started = Date.now();
    const result = await execute(tool, js('console.log("spinning"); for (;;) { try { while (true) {} } catch {} }'));
    expect(result).toMatchObject({ ok: false, stdout: 'spinning\n', error: 'Stopped at the CPU limit of 300 ms.' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('memory bombs stop at the memory limit and the next call runs', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root, memoryBytes: 16 * 1024 * 1024, cpuMs: 20_000 });
    for (const bomb of [
      'const a = []; for (let i = 0; ; i++) a.push("x".repeat(1 << 20) + i);',
      'const a = []; for (let i = 0; ; i++) a.push(new Array(100000).fill(i));',
    ]) {
      const started = Date.now();
      expect(await stopped(execute(tool, js(bomb)))).toContain('memory limit of 16777216 bytes');
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect((await execute(tool, js('6 * 7'))).value).toBe('42');
  });

  it('a recursion bomb hits the stack limit; there is no process or worker to fork', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root });
    const result = await execute(tool, js('function f() { return f() + f(); } f()'));
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/stack overflow/i) });
  });

  it('an output flood is cut at the limit with a marker', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root, cpuMs: 300, maxOutputChars: 1_000 });
    const result = await execute(tool, js('for (;;) console.log("x".repeat(100))'));
    expect(result.stdout.length).toBeLessThan(1_100);
    expect(result.stdout).toMatch(/\[… cut: \d+ more characters\]$/);
    const value = await execute(tool, js('"y".repeat(5000)'));
    expect(value.value).toMatch(/^y{1000}\n\[… cut: 4000 more characters\]$/);
  });

  it('files: no escape by .., absolute paths or symlinks, the state folder is off limits, and writes are capped', async () => {
    tree = scratchTree();
    fs.symlinkSync(tree.outside, path.join(tree.root, 'link'));
    const before = snapshot(tree.outside);
    const tool = createCodeRunTool({ root: tree.root, maxOutputFiles: 3 });
    for (const listed of [
      '../outside/secret.txt',
      path.join(tree.outside, 'secret.txt'),
      'link/secret.txt',
      '.code-run/x.json',
    ])
      await expect(execute(tool, js('1', [listed])), listed).rejects.toThrow(ToolError);
    const escape = await execute(tool, js('files.write("../escape.txt", "x")'));
    expect(escape).toMatchObject({ ok: false, error: expect.stringContaining('without "..'), filesWritten: [] });
    const reserved = await execute(tool, js('files.write(".code-run/evil.json", "{}")'));
    expect(reserved).toMatchObject({ ok: false, error: expect.stringContaining('reserved') });
    const throughLink = await execute(tool, js('files.write("link/new.txt", "x"); files.write("ok.txt", "y")'));
    expect(throughLink).toMatchObject({
      ok: true,
      filesWritten: [{ path: 'ok.txt', bytes: 1 }],
      filesRefused: [{ path: 'link/new.txt', reason: expect.stringContaining('outside the root') }],
    });
    const many = await execute(tool, js('for (let i = 0; i < 1000; i++) files.write("f" + i + ".txt", "x")'));
    expect(many).toMatchObject({ ok: false, error: expect.stringContaining('at most 3 files') });
    expect(many.filesWritten).toHaveLength(3);
    expect(snapshot(tree.outside)).toEqual(before);
    expect(fs.existsSync(path.join(tree.base, 'escape.txt'))).toBe(false);
  });

  it('a worker secret in the environment is not in the child', async () => {
    tree = scratchTree();
    process.env.CODE_RUN_TEST_SECRET = 'sk-do-not-leak';
    try {
      const tool = createCodeRunTool({ root: tree.root, languages: ['python'] });
      const result = await execute(tool, {
        language: 'python',
        code: 'import os\nstr(dict(os.environ))',
      });
      expect(result.value).not.toContain('sk-do-not-leak');
    } finally {
      delete process.env.CODE_RUN_TEST_SECRET;
    }
  });
});

describe('code_run attacks (Python)', () => {
  const py = (code: string, files?: string[]) => ({ language: 'python', code, ...(files ? { files } : {}) });

  it('runs Python over the listed files, keeps JSON globals, and cannot reach the host JavaScript', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root });
    const first = await execute(
      tool,
      py(
        'import os\nlines = open("a.txt").read().splitlines()\nopen("py.txt", "w").write("\\n".join(reversed(lines)))\nprint(sorted(os.listdir(".")))\nlen(lines)',
        ['a.txt'],
      ),
    );
    expect(first).toMatchObject({
      ok: true,
      stdout: "['a.txt', 'py.txt']\n",
      value: '2',
      filesWritten: [{ path: 'py.txt' }],
    });
    expect(first.state.kept).toEqual(['lines']);
    expect(fs.readFileSync(path.join(tree.root, 'py.txt'), 'utf8')).toBe('needle one\nalpha');
    // Globals that are not JSON are kept by pickle: a set and a date come back as themselves.
    const second = await execute(
      tool,
      py(
        'import datetime\nseen = {3, 1}\nwhen = datetime.date(2026, 11, 27)\ng = (i for i in range(3))\nf = lambda: 1',
      ),
    );
    expect(second.state).toMatchObject({ kept: ['lines', 'seen', 'when'], dropped: ['g'] });
    expect((await execute(tool, py('(lines[0], sorted(seen), when.isoformat())'))).value).toBe(
      "('alpha', [1, 3], '2026-11-27')",
    );
    // One execution tries every escape in turn (each load of Python takes seconds) and lists those that worked.
    const probes = [
      'from pyodide.ffi import to_js\nto_js([1]).constructor.constructor("return process")()',
      'import js\njs.process',
      'from pyodide.code import run_js\nrun_js("process")',
      'from pyodide.http import open_url\nopen_url("http://127.0.0.1:9/")',
      'open("/etc/passwd").read()',
      'import subprocess\nsubprocess.run(["id"])',
      'import os\nos.fork()',
    ];
    const escapes = await execute(
      tool,
      py(
        `worked = []\nfor probe in ${JSON.stringify(probes)}:\n    try:\n        exec(probe, {})\n        worked.append(probe)\n    except BaseException:\n        pass\nworked`,
      ),
    );
    expect(escapes).toMatchObject({ ok: true, value: '[]' });
    // A flood of files: twenty saved, twenty refusals named and the rest counted; nothing outside the root.
    const flood = await execute(
      tool,
      py(
        'open("../escape.txt", "w").write("x")\nopen("/tmp/escape.txt", "w").write("x")\nfor i in range(1000): open(f"f{i:04}.txt", "w").write("x")',
      ),
    );
    expect(flood.filesWritten).toHaveLength(20);
    expect(flood.filesRefused).toHaveLength(21);
    expect(flood.filesRefused!.at(-1)).toEqual({ path: '…', reason: '960 more files not saved' });
    expect(fs.existsSync(path.join(tree.base, 'escape.txt'))).toBe(false);
    expect(fs.existsSync(path.join(tree.root, 'escape.txt'))).toBe(false);
  });

  it('an infinite loop and a memory bomb stop the process at their limits', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root, cpuMs: 500, memoryBytes: 64 * 1024 * 1024 });
    expect(await stopped(execute(tool, py('while True: pass')))).toContain('CPU limit of 500 ms');
    expect(await stopped(execute(tool, py('a = []\nwhile True: a.append(bytearray(b"x" * 10**6))')))).toContain(
      'memory limit',
    );
    expect((await execute(tool, py('6 * 7'))).value).toBe('42');
  });
});
