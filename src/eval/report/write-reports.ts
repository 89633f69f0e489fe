import fs from 'node:fs';
import path from 'node:path';
import { renderHtmlReport } from './render-html-report';
import { renderMarkdownReport } from './render-markdown-report';
import type { ReportInput } from './report-input';

export interface WrittenReports {
  result: string;
  markdown: string;
  html: string;
}

/** Writes `result.json`, `report.md` and `report.html` into `dir` (made if missing); returns their paths. */
export function writeReports(dir: string, input: ReportInput): WrittenReports {
  fs.mkdirSync(dir, { recursive: true });
  const written = {
    result: path.join(dir, 'result.json'),
    markdown: path.join(dir, 'report.md'),
    html: path.join(dir, 'report.html'),
  };
  fs.writeFileSync(written.result, `${JSON.stringify(input.result, null, 2)}\n`);
  fs.writeFileSync(written.markdown, renderMarkdownReport(input));
  fs.writeFileSync(written.html, renderHtmlReport(input));
  return written;
}
