import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodeRunTool } from '../../../src/tools/builtin/code';
import { createHttpTool } from '../../../src/tools/builtin/http';
import { CODE_CHILD_MARKER } from '../../../src/tools/builtin/code/code-child-source';
import { toolContext } from '../../helpers/tool-context';
import { localServer } from '../http/local-server';
import { scratchTree } from '../files/file-tools-helpers';
import { execute } from './code-run-helpers';

let tree: ReturnType<typeof scratchTree>;

/** This process's children that are code processes, from /proc (Linux). */
function codeChildren(): string[] {
  return fs.readdirSync('/proc').filter((pid) => {
    try {
      const ppid = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1];
      return (
        ppid === String(process.pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(CODE_CHILD_MARKER)
      );
    } catch {
      return false;
    }
  });
}
afterEach(() => tree?.cleanup());

describe('code_run in JavaScript', () => {
  it('returns output and the last value, reads listed files and writes files back under the root', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root });
    const result = await execute(tool, {
      language: 'javascript',
      code: 'console.log("hi", {a: 1}); const t = files.read("a.txt"); files.write("out.txt", t.toUpperCase()); files.list().join(",")',
      files: ['a.txt', 'sub/b.txt'],
    });
    expect(result).toMatchObject({
      ok: true,
      stdout: 'hi {"a":1}\n',
      value: 'a.txt,out.txt,sub/b.txt',
      filesWritten: [{ path: 'out.txt' }],
    });
    expect(fs.readFileSync(path.join(tree.root, 'out.txt'), 'utf8')).toBe('ALPHA\nNEEDLE ONE\n');
  });

  it('keeps JSON globals for the next execution of the same run only', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root });
    const first = await execute(tool, {
      language: 'javascript',
      code: 'var total = 40; var f = () => 1; globalThis.seen = ["x"];',
    });
    expect(first.state).toMatchObject({ kept: ['seen', 'total'], dropped: ['f'] });
    const again = await execute(tool, { language: 'javascript', code: 'total + 2 + seen.length' });
    expect(again.value).toBe('43');
    const otherRun = await execute(tool, { language: 'javascript', code: 'typeof total' }, 'run-2');
    expect(otherRun.value).toBe('undefined');
    expect(fs.readdirSync(path.join(tree.root, '.code-run'))).toHaveLength(2);
  });

  it('reports a thrown error as the result, with what was printed before it', async () => {
    tree = scratchTree();
    const result = await execute(createCodeRunTool({ root: tree.root }), {
      language: 'javascript',
      code: 'console.log("before"); null.x',
    });
    expect(result).toMatchObject({ ok: false, stdout: 'before\n', error: expect.stringContaining('TypeError') });
  });
});

describe('code_run fetch', () => {
  it('goes through the HTTP tool: allowed hosts answer, others and writes are refused, at most maxFetches', async () => {
    tree = scratchTree();
    const server = await localServer((_req, res) => res.end('from the server'));
    try {
      const http = createHttpTool({
        allowHosts: ['127.0.0.1'],
        allowPorts: [server.port],
        allowAddresses: ['127.0.0.1'],
      });
      const tool = createCodeRunTool({ root: tree.root, http, maxFetches: 4 });
      const result = await execute(tool, {
        language: 'javascript',
        code: `(async () => {
          const r = await fetch(${JSON.stringify(server.url('/page'))});
          const refused = [];
          for (const url of ['http://example.com/', 'http://169.254.169.254/']) await fetch(url).catch((e) => refused.push(String(e)));
          await fetch(${JSON.stringify(server.url('/page'))}, { method: 'POST', body: 'x' }).catch((e) => refused.push(String(e)));
          const fifth = await fetch(${JSON.stringify(server.url('/page'))}).catch((e) => String(e));
          return { status: r.status, ok: r.ok, text: await r.text(), refused, fifth };
        })()`,
      });
      expect(result.ok).toBe(true);
      const value = JSON.parse(result.value!);
      expect(value).toMatchObject({
        status: 200,
        ok: true,
        text: 'from the server',
        fifth: expect.stringContaining('at most 4'),
      });
      expect(value.refused).toEqual([
        expect.stringContaining('not an allowed host'),
        expect.stringContaining('not an allowed host'),
        expect.stringContaining('only GET and HEAD'),
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('code_run cancelled', () => {
  it('kills the process when the activity is cancelled, and settles once it has gone', async () => {
    tree = scratchTree();
    const tool = createCodeRunTool({ root: tree.root, cpuMs: 60_000 });
    const controller = new AbortController();
    const started = Date.now();
    const call = tool.execute(
      tool.input.parse({ language: 'javascript', code: 'for (;;) {}' }),
      toolContext({ idempotencyKey: 'run-c:1', signal: controller.signal }),
    );
    let running: string[] = [];
    setTimeout(() => {
      running = codeChildren();
      controller.abort(new Error('cancelled by the test'));
    }, 500);
    await expect(call).rejects.toThrow('cancelled by the test');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The same probe saw the process while it ran: it can fail.
    expect(running).toHaveLength(1);
    expect(codeChildren()).toEqual([]);
  });
});
