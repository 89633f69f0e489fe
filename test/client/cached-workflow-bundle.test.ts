import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedWorkflowBundle } from '../../src/cli/setup/cached-workflow-bundle';
import { FAILURE_CONVERTER_PATH } from '../../src/codec/data-converter';
import { generateEncryptionKey } from '../../src/codec/encryption-keys';
import { AgentResult } from '../../src/domain';
import { cliEnv, PROJECT_ROOT, spawnScript } from '../helpers/cli-process';
import { makeTempDir } from '../dev-server/fixtures';

describe('the cached workflow bundle', () => {
  const cacheDir = path.join(makeTempDir('thoughtline-bundles-'), 'workflow-bundles');
  afterAll(() => fs.rmSync(path.dirname(cacheDir), { recursive: true, force: true }));

  it('is built once per code and converter, then reused without bundling again', async () => {
    const said: string[] = [];
    const first = await cachedWorkflowBundle({ cacheDir, log: (line) => said.push(line) });
    expect(said).toEqual([
      'bundling the workflow code (once per code change; about 20 s)…',
      expect.stringMatching(/^workflow code bundled in \d+\.\d s; reused until the code changes$/),
    ]);
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
    const again = await cachedWorkflowBundle({ cacheDir, log: (line) => said.push(line) });
    expect(again.codePath).toBe(first.codePath);
    expect(said).toHaveLength(2); // nothing said when the cache serves
    expect(Date.now() - before).toBeLessThan(1500); // bundling takes several seconds

    const encrypted = await cachedWorkflowBundle({ cacheDir, failureConverterPath: FAILURE_CONVERTER_PATH });
    expect(encrypted.codePath).not.toBe(first.codePath);
    expect(fs.readdirSync(cacheDir).sort()).toEqual(
      [path.basename(first.codePath), path.basename(encrypted.codePath)].sort(),
    );
  }, 120_000);

  it("serves the CLI's embedded worker, encrypted payloads included, saying on stderr that it bundles", async () => {
    // A project of its own (the built CLI and vendor/ copied, the checkout's node_modules linked), so its bundle
    // cache starts empty whatever other files or earlier runs left in the checkout's.
    const project = path.join(path.dirname(cacheDir), 'project');
    fs.cpSync(path.join(PROJECT_ROOT, 'dist'), path.join(project, 'dist'), { recursive: true });
    // The SQL grammars the workflows read from beside dist (as the package ships them).
    fs.cpSync(path.join(PROJECT_ROOT, 'vendor'), path.join(project, 'vendor'), { recursive: true });
    fs.copyFileSync(path.join(PROJECT_ROOT, 'package.json'), path.join(project, 'package.json'));
    fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(project, 'node_modules'));
    const env = cliEnv({
      THOUGHTLINE_TASK_QUEUE: `bundle-${randomUUID()}`,
      THOUGHTLINE_ENCRYPTION_KEYS: generateEncryptionKey('k1'),
    });
    const cli = spawnScript(
      path.join(project, 'dist/cli/main.js'),
      ['run', 'Compare the weather in San Francisco and Paris', '--json'],
      env,
    );
    let stdout = '';
    cli.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await cli.exited;
    expect(code, cli.output()).toBe(0);
    expect(AgentResult.parse(JSON.parse(stdout))).toMatchObject({ success: true, toolCalls: 2 });
    expect(cli.output()).toMatch(
      /thoughtline: bundling the workflow code \(once per code change; about 20 s\)…\n(.*\n)*thoughtline: workflow code bundled in \d+\.\d s; reused until the code changes\n/,
    );
    expect(fs.readdirSync(path.join(project, '.thoughtline/workflow-bundles'))).toHaveLength(1);
  }, 120_000);
});
