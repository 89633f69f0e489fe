import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentInput } from '../../src/domain';
import { loopDatasetTools } from '../../src/eval/loop-dataset';
import { caseInput, DATASET, readDataset } from './loop-dataset';

/** The loop behaviours the seeds name; each must be some case's tag. */
const BEHAVIOURS = [
  'single-tool',
  'multi-tool',
  'parallel',
  'unknown-tool',
  'failing-tool',
  'recovery',
  'retry',
  'approval-auto',
  'token-budget',
  'cost-budget',
  'max-iterations',
  'stall',
  'give-up',
  'timeout',
  'sub-agent',
  'structured-output',
  'forbidden-tool',
  'react-text',
  'format-error',
  'early-termination',
  'planning',
  'replay',
  'grounding',
  'task-choice',
  'similar',
] as const;

describe('eval/loop.jsonl, the project’s own dataset', () => {
  const cases = readDataset();

  it('has 30 or more cases with distinct ids, covering every behaviour by tag', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const tags = new Set(cases.flatMap((c) => c.tags));
    expect(BEHAVIOURS.filter((b) => !tags.has(b))).toEqual([]);
  });

  it('gives each case a run input AgentInput accepts, with tools the dataset module (or the case’s agents) has', () => {
    const names = new Set(loopDatasetTools.map((t) => t.name));
    for (const c of cases) {
      const parsed = AgentInput.safeParse(caseInput(c));
      expect(parsed.success ? '' : `${c.id}: ${parsed.error.message}`).toBe('');
      const tools = (c.input?.['tools'] as string[] | undefined) ?? [];
      const agents = Object.keys((c.input?.['agents'] as Record<string, unknown> | undefined) ?? {});
      expect(
        tools.filter((t) => !names.has(t) && !agents.includes(t)),
        c.id,
      ).toEqual([]);
    }
  });

  it('names recordings that exist, beside the dataset', () => {
    for (const c of cases.filter((c) => c.replay))
      expect(fs.existsSync(path.resolve(path.dirname(DATASET), c.replay!)), c.id).toBe(true);
  });

  it('says which line is wrong', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-dataset-'));
    try {
      const file = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(file, `${JSON.stringify({ id: 'ok', task: 't' })}\n\n{"id":"bad id","task":"t"}\n`);
      expect(() => readDataset(file)).toThrow(/^bad\.jsonl:3: /);
      fs.writeFileSync(file, '{"id":"x",\n');
      expect(() => readDataset(file)).toThrow(/^bad\.jsonl:1: not JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
