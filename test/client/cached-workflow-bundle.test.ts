import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedWorkflowBundle } from '../../src/cli/setup/cached-workflow-bundle';
import { FAILURE_CONVERTER_PATH } from '../../src/codec/data-converter';
import { generateEncryptionKey } from '../../src/codec/encryption-keys';
import { AgentResult } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';
import { makeTempDir } from '../dev-server/fixtures';

describe('the cached workflow bundle', () => {
  const cacheDir = path.join(makeTempDir('thoughtline-bundles-'), 'workflow-bundles');
  afterAll(() => fs.rmSync(path.dirname(cacheDir), { recursive: true, force: true }));

  it('is built once per code and converter, then reused without bundling again', async () => {
    const first = await cachedWorkflowBundle({ cacheDir });
    const code = fs.readFileSync(first.codePath, 'utf8');
    expect(code).toContain('agentWorkflow');
    // Its source map names every file and line, without the sources' text (half the bundle).
    const map = JSON.parse(
      Buffer.from(
        /sourceMappingURL=data:application\/json;charset=utf-8;base64,(.+)$/m.exec(code)![1]!,
        'base64',
      ).toString('utf8'),
    ) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sources.some((s) => s.endsWith('run-agent.ts'))).toBe(true);
    expect(map.sourcesContent).toBeUndefined();

    const before = Date.now();
    const again = await cachedWorkflowBundle({ cacheDir });
    expect(again.codePath).toBe(first.codePath);
    expect(Date.now() - before).toBeLessThan(1500); // bundling takes several seconds

    const encrypted = await cachedWorkflowBundle({ cacheDir, failureConverterPath: FAILURE_CONVERTER_PATH });
    expect(encrypted.codePath).not.toBe(first.codePath);
    expect(fs.readdirSync(cacheDir).sort()).toEqual(
      [path.basename(first.codePath), path.basename(encrypted.codePath)].sort(),
    );
  }, 120_000);

  it("serves the CLI's embedded worker, encrypted payloads included", async () => {
    const env = cliEnv({
      THOUGHTLINE_TASK_QUEUE: `bundle-${randomUUID()}`,
      THOUGHTLINE_ENCRYPTION_KEYS: generateEncryptionKey('k1'),
    });
    const run = await runCli(['run', 'Compare the weather in San Francisco and Paris', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(AgentResult.parse(JSON.parse(run.stdout))).toMatchObject({ success: true, toolCalls: 2 });
  }, 120_000);
});
