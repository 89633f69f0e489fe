import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadA2aSettings } from '../../src/activities/a2a/a2a-settings';
import { loadMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { loadDataset } from '../../src/eval/dataset';
import { loadVisibilityPolicy } from '../../src/governance/load-visibility-policy';
import { readRegularFile } from '../../src/files/read-regular-file';
import { cliEnv, spawnCli } from '../helpers/cli-process';

/**
 * Every file the CLI reads from a path a person gives is a regular file (symlinks followed), as
 * `--files` and `--context @FILE` already require: a named pipe hung `thoughtline eval` for good,
 * a device never ends. Each refusal is a usage error (exit 2) within seconds, naming the file.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-small-regular-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const fifo = (name: string): string => {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
};
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

/** The CLI's exit code and output, or a failure when it is still running after `ms` (it is killed). */
async function cliWithin(args: string[], ms = 15_000): Promise<{ code: number | null; output: string }> {
  const cli = spawnCli(args, cliEnv({ TEMPORAL_ADDRESS: '127.0.0.1:1' }));
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), ms);
  const code = await cli.exited;
  clearTimeout(timer);
  if (code === null) throw new Error(`thoughtline ${args.join(' ')} still ran after ${ms} ms:\n${cli.output()}`);
  return { code, output: cli.output() };
}

describe('a path the CLI reads is a regular file, or a clear usage error at once', () => {
  const good = write('good.jsonl', '{"id":"a","task":"Weather in Paris?"}\n');

  it('thoughtline eval on a named pipe: exit 2 naming it, not a hang', async () => {
    const { code, output } = await cliWithin(['eval', fifo('cases.jsonl')]);
    expect(code, output).toBe(2);
    expect(output).toMatch(/cases\.jsonl: not a regular file \(it is a named pipe\)/);
  });

  it('eval --baseline, verify and run --agents on a named pipe: exit 2 each', async () => {
    const baseline = await cliWithin(['eval', good, '--baseline', fifo('baseline.json')]);
    expect(baseline.code, baseline.output).toBe(2);
    expect(baseline.output).toMatch(/--baseline .*baseline\.json: not a regular file/);
    const verify = await cliWithin(['verify', fifo('export.json'), '--final-hash', 'a'.repeat(64)]);
    expect(verify.code, verify.output).toBe(2);
    expect(verify.output).toMatch(/export\.json: not a regular file/);
    const agents = await cliWithin(['run', 'task', '--agents', fifo('agents.json')]);
    expect(agents.code, agents.output).toBe(2);
    expect(agents.output).toMatch(/--agents .*agents\.json: not a regular file/);
  });

  it('follows a symlink to a regular file (a dataset: none); refuses one to a pipe, a directory and a device', () => {
    const link = path.join(dir, 'linked.jsonl');
    fs.symlinkSync(good, link);
    expect(readRegularFile(link, 1_000).toString()).toContain('"id":"a"');
    // A dataset is read through no symlink (docs/evaluation.md, "Dataset files").
    expect(() => loadDataset(link)).toThrow(/linked\.jsonl: a symlink, which is not followed here/);
    expect(() => loadDataset(fifo('piped.jsonl'))).toThrow(/piped\.jsonl: not a regular file \(it is a named pipe\)/);
    expect(() => readRegularFile(dir, 1_000)).toThrow(/it is a directory/);
    expect(() => readRegularFile('/dev/zero', 1_000)).toThrow(/it is a device/);
    expect(() => readRegularFile(good, 5)).toThrow(expect.objectContaining({ problem: 'too_large' }));
  });

  it('the settings files serve and worker take (--a2a, --mcp, --policy) refuse a pipe the same way', async () => {
    const pipe = fifo('settings.json');
    await expect(loadA2aSettings(pipe)).rejects.toThrow(/A2A settings .*: not a regular file \(it is a named pipe\)/);
    await expect(loadMcpConfig(pipe)).rejects.toThrow(/MCP config .*: not a regular file/);
    await expect(loadVisibilityPolicy(pipe)).rejects.toThrow(/not a regular file/);
  });
});
