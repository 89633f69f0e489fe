import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAND_WRITTEN_MODEL } from '../../src/activities/recording';
import { blocksOf, fileFindings, isRealModelName, jsonFindings, textFindings } from './figures-under-model-names';

/*
 * Issue 79, "every figure under the name of what produced it": the evaluation baseline named its
 * variant claude-sonnet-4-6 though the offline model answered, and hand-written recordings gave
 * claude-sonnet-4-6 usage, cost and durations it never produced. No file here was recorded from a
 * real model's API, so no committed file may present figures under a real model's name. The rules
 * of "presents" are in figures-under-model-names.ts; the controls below keep them able to fail.
 */

const ROOT = path.resolve(__dirname, '../..');

/** Data and pages: what a reader takes as results. Code (src/, tests, scripts) asks for models; it presents nothing. */
const SCANNED = /\.(md|json|jsonl|csv|txt|html|ya?ml)$/;
/** npm's lock file names packages, not models, and is 1 MB. */
const NOT_SCANNED = new Set(['package-lock.json']);

/**
 * Blocks that name a real model beside a figure that is a setting or a price, not a result, by
 * `file` and a text the block holds. Each entry says why; nothing is allowed for being inconvenient.
 */
const CONFIGURATION: ReadonlyArray<{ file: string; holds: string; why: string }> = [
  { file: 'docs/models.md', holds: 'so 5 s is safe', why: 'the default settings and a heartbeat timeout' },
];

const committedFiles = (): string[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => SCANNED.test(f) && !f.startsWith('src/') && !NOT_SCANNED.has(f));

describe('no committed file presents figures under a real model name', () => {
  it('finds none in the repository', () => {
    const files = committedFiles();
    // The scan reaches the places the issue names: evaluation data, docs, examples, fixtures, bench results.
    for (const where of ['eval/', 'docs/', 'examples/', 'test/replay/fixtures/', 'bench/results/'])
      expect(
        files.some((f) => f.startsWith(where)),
        where,
      ).toBe(true);
    const findings = files.flatMap((file) => {
      const content = fs.readFileSync(path.join(ROOT, file), 'utf8');
      return fileFindings(file, content).filter(
        (f) => !CONFIGURATION.some((c) => c.file === file && blockAt(content, f.line).includes(c.holds)),
      );
    });
    expect(findings.map((f) => `${f.file}:${f.line} ${f.what}`)).toEqual([]);
  });

  it('knows real model names from the price table and the big families, not stand-ins', () => {
    for (const name of ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001', 'gpt-4o', 'gemini-2.5-pro'])
      expect(isRealModelName(name), name).toBe(true);
    for (const name of ['offline-model', 'scripted-model', HAND_WRITTEN_MODEL, 'SmolLM2-135M-Instruct', 'brief'])
      expect(isRealModelName(name), name).toBe(false);
  });

  it('catches a reply, a ledger row and an evaluation variant under a real name (controls)', () => {
    const reply = { model: 'claude-sonnet-4-6', usage: { inputTokens: 400, outputTokens: 60 }, costUsd: 0 };
    expect(jsonFindings({ workflowId: 'w', reply })).toHaveLength(1);
    expect(jsonFindings({ byModel: [{ model: 'gpt-4o', runs: 3, costUsd: 0.0144 }] })).toHaveLength(1);
    const result = { variants: [{ id: 'claude-sonnet-4-6', model: { provider: 'anthropic' } }], results: [] };
    expect(jsonFindings(result)).toHaveLength(1);
    // Inside a Temporal history, payloads are base64 JSON: they are read too.
    const data = Buffer.from(JSON.stringify(reply)).toString('base64');
    expect(jsonFindings({ events: [{ payloads: [{ metadata: {}, data }] }] })).toHaveLength(1);
    expect(textFindings('### paris · claude-sonnet-4-6 · run 1 of 1\n\nEnded success, 137 ms, $0.0000.')).toEqual([]);
    expect(textFindings('### paris · claude-sonnet-4-6 · run 1 of 1\nEnded success, 137 ms, $0.0000.')).toHaveLength(1);
    expect(textFindings('| claude-haiku-4-5 | 88% |')).toHaveLength(1);
  });

  it('leaves alone a model asked for, and figures under the name of what produced them', () => {
    const settings = { provider: 'anthropic', model: 'claude-sonnet-4-6', maxTokens: 2048, timeoutMs: 120000 };
    expect(jsonFindings({ variants: [{ id: 'offline-model' }], results: [], model: settings })).toEqual([]);
    expect(jsonFindings({ model: 'offline-model', usage: { inputTokens: 12 }, costUsd: 0 })).toEqual([]);
    expect(
      textFindings('| `THOUGHTLINE_MODEL` | `claude-sonnet-4-6` | model the CLI asks for, maxTokens: 2048 |'),
    ).toEqual([]);
    expect(textFindings('offline-model (iteration 1, asked for claude-sonnet-4-6)')).toEqual([]);
  });
});

/** The block of `content` that starts at `line` (the whole file for a JSON file's findings, all on line 1). */
function blockAt(content: string, line: number): string {
  return blocksOf(content).find((b) => b.line === line)?.text ?? content;
}
