import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentResult } from '../../src/domain';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { Client, Connection } from '@temporalio/client';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-audit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('audit and fork from the CLI, against a real server', () => {
  it(
    'exports a signed report that verify accepts and a one-character edit fails; chain --as-of and fork --dry-run read the same run',
    { timeout: 180_000 },
    async () => {
      const seed = new Uint8Array(32).fill(3);
      const keyring = path.join(dir, 'export-keys.json');
      fs.writeFileSync(keyring, JSON.stringify({ keys: [{ id: 'audit-2026', privateKey: base64UrlEncode(seed) }] }), {
        mode: 0o600,
      });
      const publicKey = base64UrlEncode(ed25519.getPublicKey(seed));
      const env = cliEnv({
        THOUGHTLINE_TASK_QUEUE: `audit-${randomUUID()}`,
        THOUGHTLINE_USER: 'carol',
        THOUGHTLINE_ROLES: 'auditor',
        THOUGHTLINE_EXPORT_KEYRING: keyring,
      });

      const run = await runCli(['run', 'Compare the weather in San Francisco and Paris', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      const result = AgentResult.parse(JSON.parse(run.stdout));
      const id = result.chain.chainId;

      const file = path.join(dir, 'report.json');
      const exported = await runCli(['export', id, '--format', 'json', '--out', file], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toMatch(/signed by audit-2026/);
      const report = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(report.run.caller).toEqual({ id: 'carol', roles: ['auditor'] });
      expect(report.modelCalls).toHaveLength(result.modelCalls);

      const ok = await runCli(['verify', file, '--public-key', publicKey], env);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toContain(`✓ ${id}: intact`);
      expect(ok.stdout).toContain('signed by trusted key audit-2026');

      const toolStep = report.steps.find(
        (s: { type: string; toolCall?: { toolType: string } }) =>
          s.type === 'tool_call' && s.toolCall?.toolType !== 'llm',
      );
      const text = fs.readFileSync(file, 'utf8');
      const city = JSON.stringify(toolStep.toolCall.arguments).match(/"([A-Z][a-z]+)/)![1]!;
      const edited = path.join(dir, 'edited.json');
      fs.writeFileSync(edited, text.replace(`"${city}`, `"${city.toLowerCase()}`));
      const bad = await runCli(['verify', edited], env);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(new RegExp(`✗ ${id}: step ${toolStep.stepNumber} \\(`));

      const asOf = await runCli(['chain', id, '--as-of', '2', '--json'], env);
      expect(asOf.code, asOf.stderr).toBe(0);
      expect(JSON.parse(asOf.stdout)).toMatchObject({ asOfStep: 2, ledger: { modelCalls: 1 } });
      expect(JSON.parse(asOf.stdout).chain.steps).toHaveLength(2);

      const dry = await runCli(['fork', id, '--at-step', '2', '--model', 'offline', '--dry-run', '--json'], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout.slice(dry.stdout.indexOf('{')))).toMatchObject({
        fork: { workflowId: id, atStep: 2 },
      });
      const missing = await runCli(['fork', id, '--at-step', '999'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/there is no step 999 to fork at/);

      // A real fork, served by a standing worker: it ends, linked to the original.
      const worker = spawnCli(['worker'], env);
      try {
        await worker.waitFor(/worker polling task queue/);
        const forked = await runCli(['fork', id, '--at-step', '2', '--steer', 'Answer in one line.', '--json'], env);
        expect(forked.code, forked.stderr).toBe(0);
        const forkId = JSON.parse(forked.stdout).workflowId as string;
        const connection = await Connection.connect({ address: env['TEMPORAL_ADDRESS']! });
        const client = new Client({ connection, namespace: env['TEMPORAL_NAMESPACE']! });
        const result = AgentResult.parse(
          await client.workflow
            .getHandle(forkId)
            .result()
            .finally(() => connection.close()),
        );
        expect(result.chain.forkedFrom).toMatchObject({ workflowId: id, atStep: 2 });
        expect(result.chain.steps.slice(0, 2)).toEqual(report.steps.slice(0, 2));
        expect(result.chain.caller).toEqual({ id: 'carol', roles: ['auditor'] });
      } finally {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
    },
  );
});
