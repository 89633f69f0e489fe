import fs from 'node:fs';
import path from 'node:path';
import type { FakeRequestBody } from '../../src/testing';
import { PROJECT_ROOT } from './cli-process';

/**
 * Writes a tools module for a CLI worker (`thoughtline worker --tools FILE`): its one tool,
 * `record`, appends `{ n, key, pid }` to `logFile` on each call, like a real side effect, so a
 * test can count what ran and in which process. Needs the built package (dist/).
 */
export function writeRecordingToolsModule(dir: string, logFile: string, name = 'recording-tools.js'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `const fs = require('node:fs');
const { z } = require('zod');
const { defineTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/tools/define-tool'))});
exports.tools = [defineTool({
  name: 'record', description: 'Records entry n', input: z.object({ n: z.number().int() }),
  execute: ({ n }, ctx) => {
    fs.appendFileSync(${JSON.stringify(logFile)}, JSON.stringify({ n, key: ctx.idempotencyKey, pid: process.pid }) + '\\n');
    return { recorded: n };
  },
})];
`,
  );
  return file;
}

/** How many tool results a model request carries: the turn a stateless fake model answers. */
export const toolResultsIn = (body: FakeRequestBody | undefined): number =>
  (body?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string }>) : []))
    .filter((b) => b.type === 'tool_result').length;
