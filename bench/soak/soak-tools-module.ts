import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes the tools module a soak worker loads (`thoughtline worker --tools FILE`), for the build
 * whose root is `buildRoot` (the checkout, or the second build of the rolling deploy):
 * - `slow_job` applies one side effect at the soak's external service (SOAK_SERVICE_URL), sending
 *   the call's idempotency key and the worker's pid; the service applies a key once.
 * - agents `soak_scheduled` and `soak_triggered`, which schedules and triggers start by name.
 * Plain JS: the worker is a separate Node process.
 */
export function writeSoakToolsModule(buildRoot: string, dir: string): string {
  const file = path.join(dir, 'soak-tools.js');
  const dist = (name: string) => JSON.stringify(path.join(buildRoot, 'dist', name));
  fs.writeFileSync(
    file,
    `const { z } = require('zod');
const { defineTool } = require(${dist('tools/define-tool')});
const { defineAgent } = require(${dist('agents/define-agent')});

const serviceUrl = process.env.SOAK_SERVICE_URL;
async function apply(tool, args, ctx) {
  const res = await fetch(serviceUrl + '/effects', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: ctx.idempotencyKey, tool, args, worker: process.pid }),
    signal: ctx.signal,
  });
  if (!res.ok) throw new Error('external service answered ' + res.status);
  return res.json();
}

exports.tools = [
  defineTool({
    name: 'slow_job', description: 'Runs a job of a run step',
    input: z.object({ run: z.string(), step: z.number().int() }),
    timeoutMs: 60000, retry: { maximumAttempts: 50, initialIntervalMs: 500, backoffCoefficient: 1.5, maximumIntervalMs: 5000 },
    execute: (args, ctx) => apply('slow_job', args, ctx),
  }),
];
const agent = (id) => defineAgent({
  id, version: '1.0.0', description: 'A soak job started without a person', systemPrompt: 'Run the job.', tools: ['slow_job'],
});
exports.agents = [agent('soak_scheduled'), agent('soak_triggered')];
`,
  );
  return file;
}
