import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ToolDefinition } from '../../../src/tools/define-tool';
import { PROJECT_ROOT } from '../../helpers/cli-process';

/**
 * Writes the tools module a CLI worker loads (`thoughtline worker --tools FILE`): `deposit`,
 * `notify` and `slow_job` each apply one side effect at the fake external service named by
 * CHAOS_SERVICE_URL, passing the call's idempotency key and the worker's pid. Plain JS, because
 * the worker is a separate Node process. Attempts are generous because every kill in a wave may
 * interrupt the same call. `slow_job` may take an hour: only its heartbeat timeout (5 s) notices a
 * worker that died during it.
 */
export function writeChaosToolsModule(dir: string): string {
  const file = path.join(dir, 'chaos-tools.js');
  fs.writeFileSync(
    file,
    `const { z } = require('zod');
const { defineTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/tools/define-tool'))});

function createChaosTools(serviceUrl) {
  const apply = async (tool, args, ctx) => {
    const res = await fetch(serviceUrl + '/effects', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: ctx.idempotencyKey, tool, args, worker: process.pid }),
      signal: ctx.signal,
    });
    if (!res.ok) throw new Error('external service answered ' + res.status);
    return res.json();
  };
  const options = { timeoutMs: 5000, retry: { maximumAttempts: 20, initialIntervalMs: 500, backoffCoefficient: 1.5 } };
  return [
    defineTool({
      name: 'deposit', description: 'Deposits an amount into an account',
      input: z.object({ account: z.string(), amount: z.number().int() }), ...options,
      execute: (args, ctx) => apply('deposit', args, ctx),
    }),
    defineTool({
      name: 'notify', description: 'Sends a notification',
      input: z.object({ to: z.string(), message: z.string() }), ...options,
      execute: (args, ctx) => apply('notify', args, ctx),
    }),
    defineTool({
      name: 'slow_job', description: 'Runs a job of a run step',
      input: z.object({ run: z.string(), step: z.number().int() }),
      timeoutMs: 3600000, retry: { maximumAttempts: 20 },
      execute: (args, ctx) => apply('slow_job', args, ctx),
    }),
  ];
}

exports.createChaosTools = createChaosTools;
exports.tools = process.env.CHAOS_SERVICE_URL ? createChaosTools(process.env.CHAOS_SERVICE_URL) : [];
`,
  );
  return file;
}

/** The same tools in this process, for an undisturbed reference worker. */
export function loadChaosTools(file: string, serviceUrl: string): ToolDefinition[] {
  const mod = createRequire(__filename)(file) as { createChaosTools(url: string): ToolDefinition[] };
  return mod.createChaosTools(serviceUrl);
}

export const CHAOS_TOOL_NAMES = ['deposit', 'notify'];
