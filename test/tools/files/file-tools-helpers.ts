import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolDefinition } from '../../../src/tools/define-tool';
import { ToolError } from '../../../src/tools/tool-error';
import { toolContext } from '../../helpers/tool-context';

export const context: ToolContext = toolContext({ idempotencyKey: 'test' });

/** Runs a tool as the worker does: arguments parsed by its schema first. */
export async function run(tool: ToolDefinition, args: Record<string, unknown>): Promise<unknown> {
  return tool.execute(tool.input.parse(args), context);
}

/** The refusal message of a call that must fail with a final ToolError. */
export async function refusal(tool: ToolDefinition, args: Record<string, unknown>): Promise<string> {
  try {
    await run(tool, args);
  } catch (err) {
    if (ToolError.is(err) && !err.retryable) return err.message;
    throw err;
  }
  throw new Error(`${tool.name} ${JSON.stringify(args)} was not refused`);
}

/**
 * A scratch tree: `<base>/root` (the tools' root, with a.txt and sub/b.txt), `<base>/root2` (a
 * sibling whose name starts with the root's) and `<base>/outside` (secret.txt), all real dirs.
 */
export function scratchTree() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-files-'));
  const root = path.join(base, 'root');
  const sibling = path.join(base, 'root2');
  const outside = path.join(base, 'outside');
  for (const dir of [root, path.join(root, 'sub'), sibling, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\nneedle one\n');
  fs.writeFileSync(path.join(root, 'sub', 'b.txt'), 'beta\nthe needle two\n');
  fs.writeFileSync(path.join(sibling, 'secret.txt'), 'sibling secret');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside secret');
  return { base, root, sibling, outside, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/** Every file under `dir` with its content: to show that nothing outside the root changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    else if (entry.isSymbolicLink()) out[path.relative(dir, full)] = `-> ${fs.readlinkSync(full)}`;
  }
  return out;
}
