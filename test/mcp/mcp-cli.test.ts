import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';
import { FILESYSTEM_SERVER, sampleFolder } from './mcp-test-servers';

/** A config file as a user writes it for a desktop client. */
function configFile(config: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tl-mcp-cli-')), 'mcp.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('thoughtline with --mcp', () => {
  const dir = sampleFolder();
  const file = configFile({ mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM_SERVER, dir] } } });

  it('tools --mcp lists the server’s tools with their defaults, then stops the server', async () => {
    const { code, stdout } = await runCli(['tools', '--mcp', file, '--json'], cliEnv({}));
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ name: string; source: string; readOnly: boolean; approval: string }>;
    expect(rows.find((r) => r.name === 'fs__read_text_file')).toMatchObject({
      source: 'mcp:fs',
      readOnly: true,
      approval: 'never',
    });
    expect(rows.find((r) => r.name === 'fs__write_file')).toMatchObject({
      source: 'mcp:fs',
      readOnly: false,
      approval: 'always',
    });
  }, 60_000);

  it('run --mcp offers the server’s tools to an offline run, which reads the file through them', async () => {
    const task = `Read the text file "${dir}/notes.txt" and say when the launch is`;
    const { code, stdout, stderr } = await runCli(
      ['run', task, '--mcp', file, '--json'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `mcp-${randomUUID()}` }),
    );
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as AgentResult;
    expect(result.terminationReason).toBe('success');
    expect(result.finalAnswer).toContain('The launch is on Tuesday.');
    expect(result.chain.steps.some((s) => s.type === 'tool_call' && s.toolCall.toolName === 'fs__read_text_file')).toBe(
      true,
    );
  }, 120_000);

  it('refuses a config file with a misspelt key before starting anything, naming where', async () => {
    const bad = configFile({
      mcpServers: { web: { url: 'https://mcp.example.com/mcp', headres: { Authorization: 'x' } } },
    });
    const { code, stderr } = await runCli(['worker', '--mcp', bad], cliEnv({}));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/MCP config .*mcp\.json is not valid/);
    expect(stderr).toContain('mcpServers.web');
  }, 60_000);
});
