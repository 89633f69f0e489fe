import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileTools } from '../../../src/tools/builtin/files';
import { ToolError } from '../../../src/tools/tool-error';
import { context, scratchTree } from './file-tools-helpers';

/**
 * A second process swaps a folder inside the root for a symlink to a folder outside it, over and
 * over, while files_write writes into that folder (issue 43, item 4: the review got 7,646 empty
 * files created outside the root in 6 seconds, each call refused after its file was made).
 */
const SWAPPER = `
const fs = require('node:fs');
const [dir, parked, outside, until] = process.argv.slice(1);
while (Date.now() < Number(until)) {
  try { fs.renameSync(dir, parked); fs.symlinkSync(outside, dir); fs.unlinkSync(dir); fs.renameSync(parked, dir); } catch {}
}
`;

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('files_write under a racing folder swap', () => {
  it('creates nothing outside the root, not even an empty file, and writes only inside it', async () => {
    const tree = scratchTree();
    cleanup = tree.cleanup;
    const target = path.join(tree.outside, 'target');
    fs.mkdirSync(target);
    const dir = path.join(tree.root, 'work');
    fs.mkdirSync(dir);
    const write = createFileTools({ root: tree.root })[3];
    const until = Date.now() + 3_000;
    const swapper = spawn(
      process.execPath,
      ['-e', SWAPPER, dir, path.join(tree.root, 'work-parked'), target, String(until)],
      { stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => swapper.once('exit', () => resolve()));
    let written = 0;
    let refused = 0;
    for (let i = 0; Date.now() < until; i++) {
      try {
        await write.execute({ path: `work/file-${i}.txt`, content: 'inside only' }, context);
        written++;
      } catch (err) {
        if (!ToolError.is(err)) throw err;
        refused++;
      }
    }
    await exited;
    // The race was real: both outcomes happened many times (hundreds idle; 47 writes at load 12).
    expect(written).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
    expect(fs.readdirSync(target)).toEqual([]);
    // Every file reported written is inside the root, whole.
    const inside = fs.readdirSync(dir);
    expect(inside.length).toBe(written);
    for (const name of inside.slice(0, 20)) expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('inside only');
  }, 30_000);
});
