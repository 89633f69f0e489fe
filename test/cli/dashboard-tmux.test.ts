import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { ensureDebianProgram } from '../helpers/debian-package';

/**
 * The dashboard in a real terminal: `thoughtline run --plan` in a tmux pane of 100×40, against a
 * standing worker (offline model) whose two tools each wait until the test lets them go, read with
 * capture-pane at two moments and after Ctrl-C. With DASHBOARD_CAPTURE_DIR set
 * (scripts/dashboard-capture.sh) the captures are written there for docs/dashboard.md.
 */
const queue = `dashboard-${randomUUID()}`;
const socket = `tl-dash-${process.pid}`;
const TASK = 'Check the inventory stock and audit the ledger entries';
let dir: string;
let worker: CliProcess;
let tmux: string;

/**
 * The tools module the standing worker loads: two tools the offline model plans one task each for.
 * Each returns only once its file in `into` exists (release()), so a moment the test reads lasts
 * until it has read it, however slow a loaded machine draws it.
 */
function writeGatedTools(into: string): string {
  const file = path.join(into, 'gated-tools.js');
  fs.writeFileSync(
    file,
    `const fs = require('node:fs');
const path = require('node:path');
const { z } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'node_modules/zod'))});
const { defineTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/tools/define-tool'))});
const released = (name, value) => new Promise((r) => {
  const poll = setInterval(() => {
    if (fs.existsSync(path.join(${JSON.stringify(into)}, name))) clearInterval(poll), r(value);
  }, 100);
});
exports.tools = [
  defineTool({
    name: 'inventory_stock', description: 'Counts the inventory stock of a warehouse',
    input: z.object({ warehouse: z.string() }), timeoutMs: 180000,
    execute: async (args) => released('inventory_stock', { warehouse: args.warehouse, units: 42 }),
  }),
  defineTool({
    name: 'ledger_audit', description: 'Audits the ledger entries of a month',
    input: z.object({ month: z.string() }), timeoutMs: 180000,
    execute: async (args) => released('ledger_audit', { month: args.month, discrepancies: 0 }),
  }),
];
`,
  );
  return file;
}

/** Lets the tool of that name return. */
const release = (tool: string): void => fs.writeFileSync(path.join(dir, tool), '');

const tm = (...args: string[]): string => execFileSync(tmux, ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (): string => tm('capture-pane', '-p', '-t', 'dash');
const flag = (name: string): string => tm('display', '-p', '-t', 'dash', `#{${name}}`).trim();

async function screenMatching(patterns: RegExp[], timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (patterns.every((p) => p.test(text))) return text;
    if (Date.now() > deadline) throw new Error(`the pane never showed ${patterns.join(', ')}:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const saved = (name: string, text: string): void => {
  const to = process.env['DASHBOARD_CAPTURE_DIR'];
  if (to) fs.writeFileSync(path.join(to, name), `${text.replace(/\s+$/gm, '').trimEnd()}\n`);
};

beforeAll(async () => {
  tmux = ensureDebianProgram('tmux');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-dash-'));
  const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: queue });
  worker = spawnCli(['worker', '--tools', writeGatedTools(dir)], env);
  await worker.waitFor(/worker polling task queue/, 120_000);
  // The pane's shell gets the suite's server and queue; colours allowed (cliEnv turns them off).
  const paneEnv: NodeJS.ProcessEnv = { ...env, TERM: 'xterm-256color' };
  delete paneEnv['NO_COLOR'];
  execFileSync(
    tmux,
    [
      '-L',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'dash',
      '-x',
      '100',
      '-y',
      '40',
      'bash --norc --noprofile',
    ],
    { env: paneEnv },
  );
}, 180_000);

afterAll(async () => {
  // Only this test's own tmux server (its own socket); it may be gone already.
  if (tmux) spawnSync(tmux, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('thoughtline run on a terminal', () => {
  it(
    'redraws one dashboard screen as the plan advances, and gives the terminal back on Ctrl-C',
    { timeout: 240_000 },
    async () => {
      // `thoughtline` in the pane is the built CLI, so the captures read as a person would type them.
      const cli = path.join(PROJECT_ROOT, 'dist/cli/main.js');
      tm('send-keys', '-t', 'dash', `PS1='$ '; thoughtline() { "${process.execPath}" "${cli}" "$@"; }; clear`, 'Enter');
      await screenMatching([/^\$\s*$/m], 10_000);
      tm('send-keys', '-t', 'dash', `thoughtline run --plan --no-worker "${TASK}"; echo "EXIT=$?"`, 'Enter');

      // First moment: the box with the plan, the iteration of the maximum, a task in progress and its
      // action (the first frame now comes at once, which can be before the first call is shown).
      const first = await screenMatching([
        /Iteration \d+\/\d+ \| Progress: \d+%/,
        /▶ t1: /,
        /⋯ t3: .*after t1, t2/,
        /Action: Using tool \[inventory_stock\]/,
      ]);
      expect(flag('alternate_on')).toBe('1');
      expect(first).toMatch(/┌─ Thoughtline · agent-/);
      expect(first).toContain(`Goal: ${TASK}`);
      expect(first).toMatch(/Action: Using tool \[inventory_stock\]/);
      expect(first).toMatch(/Cost so far: \$\d+\.\d{4}/);
      // Every row whole, both borders in the pane's 100 columns.
      const rows = first.split('\n').filter((l) => l.startsWith('│'));
      expect(rows.length).toBeGreaterThan(10);
      for (const row of rows) expect(row).toMatch(/^│.{98}│$/u);
      expect(first).toMatch(/─┐$/m);
      saved('first.txt', first);
      release('inventory_stock');

      // Later: the first task done, the second one under way.
      const later = await screenMatching([/✓ t1: /, /▶ t2: /, /Action: Using tool \[ledger_audit\]/]);
      expect(later).toMatch(/Progress: 33% \[/);
      saved('later.txt', later);

      // Ctrl-C: the main screen is back with its cursor, the last frame and the resume advice in it.
      tm('send-keys', '-t', 'dash', 'C-c');
      const after = await screenMatching([/EXIT=130/]);
      expect(flag('alternate_on')).toBe('0');
      expect(flag('cursor_flag')).toBe('1');
      expect(after).toMatch(/Stopped following agent-\S+\./);
      expect(after).toMatch(/thoughtline watch agent-/);
      expect(after).toMatch(/└─+┘/);
      expect(after).not.toMatch(/\x1b/);
      // The shell still works: what is typed now is echoed and run.
      tm('send-keys', '-t', 'dash', 'echo terminal-$((40+2))', 'Enter');
      expect(await screenMatching([/terminal-42/])).toContain('terminal-42');
      saved('after-ctrl-c.txt', tm('capture-pane', '-p', '-t', 'dash', '-S', '-60'));
      release('ledger_audit');

      // The run went on on its worker: `watch --dashboard` follows it to its end, then prints the outcome as lines.
      const id = /thoughtline watch (agent-[0-9a-f-]{36})/.exec(after)?.[1];
      expect(id).toBeDefined();
      tm('send-keys', '-t', 'dash', 'clear', 'Enter');
      tm('send-keys', '-t', 'dash', `thoughtline watch --dashboard ${id}; echo "EXIT=$?"`, 'Enter');
      const ended = await screenMatching([/^EXIT=[01]$/m]);
      expect(ended).toContain('EXIT=0');
      expect(flag('alternate_on')).toBe('0');
      expect(flag('cursor_flag')).toBe('1');
      const scrollback = tm('capture-pane', '-p', '-J', '-t', 'dash', '-S', '-80');
      expect(scrollback).toMatch(/Status: ended \(success\)/);
      expect(scrollback).toMatch(/✓ t1: [\s\S]*✓ t2: [\s\S]*✓ t3: /);
      // Under the last frame, the answer whole (the offline model's names both tools' results), then the outcome.
      expect(scrollback).toMatch(
        /┘\nFinal answer:\n\[offline model\] For "Check the inventory[\s\S]*ledger_audit[\s\S]*\nResult: /,
      );
      expect(scrollback).toMatch(/Result: success after \d+ iterations/);
      saved('watch-ended.txt', scrollback);
    },
  );
});
