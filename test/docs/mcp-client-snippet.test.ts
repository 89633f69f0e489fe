import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, PROJECT_ROOT, runCli, spawnCli } from '../helpers/cli-process';
import { fencedBlocks } from './markdown-blocks';

/**
 * docs/mcp-server.md's client script, run as written with node against the page's own commands
 * (`thoughtline token …`, `thoughtline mcp-server --http 8090 --with-worker`) on the suite's dev
 * server and the offline model: it must print the answer and the run id, and exit. Two things are
 * substituted, explicitly: a free port for 8090 (other suites share the machine), and the token
 * file (a temporary one through THOUGHTLINE_TOKENS, not the checkout's .thoughtline/tokens.json).
 */
const PAGE = path.join(PROJECT_ROOT, 'docs/mcp-server.md');
const DOC_PORT = '8090';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mcp-snippet-'));
// Under the checkout, so the script's imports resolve as they do in a project that installed the SDK.
fs.mkdirSync(path.join(PROJECT_ROOT, '.thoughtline'), { recursive: true });
const scriptDir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline', 'mcp-snippet-'));
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(scriptDir, { recursive: true, force: true });
});

function pageBlocks(): { commands: string[]; client: string } {
  const blocks = fencedBlocks(fs.readFileSync(PAGE, 'utf8'));
  const client = blocks.filter((b) => b.lang === 'mjs');
  const commands = blocks.find((b) => b.lang === 'bash' && b.code.includes(`mcp-server --http ${DOC_PORT}`));
  expect(client).toHaveLength(1);
  expect(commands).toBeDefined();
  return { commands: commands!.code.split('\n').filter((l) => l.trim() !== ''), client: client[0]!.code };
}

/** A `npx thoughtline …` line of the page as the CLI's arguments (these lines quote nothing). */
const argsOf = (line: string): string[] => {
  expect(line).toMatch(/^npx thoughtline [^'"`$]*$/);
  return line.split(/\s+/).slice(2);
};

describe("docs/mcp-server.md's client script", () => {
  it('prints the answer and the run id and exits, against the mcp-server the page starts', async () => {
    const { commands, client } = pageBlocks();
    expect(client).toContain('await client.close();');
    expect(client).not.toContain('elicitation');
    const [tokenLine, serverLine] = commands;
    const env = cliEnv({
      THOUGHTLINE_TOKENS: path.join(dir, 'tokens.json'),
      THOUGHTLINE_TASK_QUEUE: `mcp-snippet-${randomUUID()}`,
    });
    const token = await runCli(argsOf(tokenLine!), env);
    expect(token.code, token.stderr).toBe(0);
    const server = spawnCli(
      argsOf(serverLine!).map((a) => (a === DOC_PORT ? '0' : a)),
      env,
    );
    try {
      await server.waitFor(/MCP server at http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 60_000);
      const port = /MCP server at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(server.output())![1]!;
      const script = path.join(scriptDir, 'client.mjs');
      fs.writeFileSync(script, client.replace(`127.0.0.1:${DOC_PORT}/`, `127.0.0.1:${port}/`));
      const startedAt = Date.now();
      const run = await runNode(script, { ...env, THOUGHTLINE_TOKEN: token.stdout.trim() }, 90_000);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Paris');
      expect(run.stdout.trim()).toMatch(/ agent-[\w-]+$/);
      // It exits once the answer is printed, not when a timeout gives up on it.
      expect(Date.now() - startedAt).toBeLessThan(90_000);
      expect(server.output()).not.toContain('Method not found');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});

/** `node script` to its end; killed (code null) if it has not exited within `timeoutMs`. */
function runNode(
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script], { env, cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
