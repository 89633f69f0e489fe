import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { findProjectRoot } from '../dev-server/project-paths';
import { defineTool } from '../tools/define-tool';

/** Where the demo's reports land; a tool with a side effect, so a person approves each write. */
export const reportsDir = (): string => path.join(findProjectRoot(), '.thoughtline', 'reports');

/**
 * Writes a markdown report. A write-like built-in (`file_system`, not read-only), so it needs
 * approval by default: the CLI shows the pending call, `thoughtline approve` lets it run.
 */
export const saveReportTool = defineTool({
  name: 'save_report',
  type: 'file_system',
  description: 'Save a short markdown report to a file in the reports folder. A person must approve each save.',
  input: z.object({
    name: z
      .string()
      .regex(/^[\w.-]{1,80}\.md$/, 'a plain file name ending in .md')
      .describe('File name, e.g. "weather.md"'),
    content: z.string().min(1).max(20_000).describe('The report, in markdown'),
  }),
  summaryTemplate: 'Saved the report {name}',
  execute: ({ name, content }, { idempotencyKey }) => {
    const dir = reportsDir();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    // The same call retried writes the same bytes: the write is idempotent by construction.
    fs.writeFileSync(file, `${content}\n\n<!-- written by thoughtline, call ${idempotencyKey} -->\n`);
    return { saved: path.relative(findProjectRoot(), file), bytes: Buffer.byteLength(content) };
  },
});
