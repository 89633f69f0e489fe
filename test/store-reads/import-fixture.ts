import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { auditReport, sealAll, type AuditBundle, type AuditReport } from '../../src/audit';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { openChainStore } from '../../src/store/open-chain-store';
import type { ChainStore } from '../../src/store/chain-store';
import { runScripted } from '../helpers/run-scripted';
import type { TestEnv } from '../helpers/temporal-env';
import { CARD, viewTools } from './store-fixture';

/** A run's signed auditor export in a bundle file, and a copy with one step edited; Temporal has forgotten the run. */
export interface ExportedRun {
  dir: string;
  runId: string;
  /** Text only the run's steps carry, in every view. */
  key: string;
  publicKey: string;
  file: string;
  tampered: string;
  text: string;
  steps: number;
  /** The export's report with `change` applied, sealed again with the same key (a bundle's text). */
  resealed(change: (report: AuditReport) => AuditReport): string;
  openStore(name: string): Promise<ChainStore>;
  sqlite(name: string): string;
}

/**
 * Registers hooks that run one agent (a `pay` with a sensitive card, a `lookup`), export it signed
 * as `erin`, write the bundle, then delete the run from Temporal, as retention would: what a test
 * reads afterwards comes from the import alone.
 */
export function useExportedRun(env: TestEnv): ExportedRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-import-'));
  const tag = Math.random().toString(36).slice(2, 8);
  const seed = new Uint8Array(32).fill(7);
  const sqlite = (name: string) => path.join(dir, `${name}.sqlite`);
  const exported: ExportedRun = {
    dir,
    runId: '',
    key: `importkey${tag}`,
    publicKey: base64UrlEncode(ed25519.getPublicKey(seed)),
    file: path.join(dir, 'bundle.json'),
    tampered: path.join(dir, 'tampered.json'),
    text: '',
    steps: 0,
    sqlite,
    resealed: (change) => {
      const { integrity: _old, ...report } = sealed!;
      return JSON.stringify({ ...bundleOf(sealAll(change(report), { keyId: 'audit-key', seed })) });
    },
    openStore: async (name) => (await openChainStore({ kind: 'sqlite', file: sqlite(name) }))!,
  };
  let sealed: AuditReport | undefined;
  beforeAll(async () => {
    const run = await runScripted(env, {
      tools: viewTools(),
      input: {
        task: `import-${tag}: pay`,
        agentName: `import-agent-${tag}`,
        caller: { id: 'dev', roles: [], tenant: 'acme' },
      },
      script: [
        { content: [useTool('pay', { card: CARD, amount: 3 }), useTool('lookup', { key: exported.key })] },
        { content: [useTool('finish', { result: 'paid' })] },
      ],
    });
    exported.runId = run.workflowId;
    const report = sealAll(
      await auditReport(new AgentClient({ client: env.client }), run.workflowId, 'auditor', {
        id: 'erin',
        roles: ['auditor'],
      }),
      { keyId: 'audit-key', seed },
    );
    sealed = report;
    exported.steps = report.steps.length;
    exported.text = `${JSON.stringify(bundleOf(report), null, 2)}\n`;
    fs.writeFileSync(exported.file, exported.text);
    fs.writeFileSync(exported.tampered, exported.text.replace(`"key": "${exported.key}"`, `"key": "${exported.key}x"`));
    await env.client.workflowService.deleteWorkflowExecution({
      namespace: env.client.options.namespace,
      workflowExecution: { workflowId: run.workflowId },
    });
    // Deletion is asynchronous: wait until Temporal no longer describes the run.
    const handle = env.client.workflow.getHandle(run.workflowId);
    for (let tries = 0; ; tries++) {
      const gone = await handle.describe().then(
        () => false,
        (err: unknown) => err instanceof WorkflowNotFoundError,
      );
      if (gone) break;
      if (tries >= 100) throw new Error(`Temporal still holds ${run.workflowId} 10 s after its deletion`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return exported;
}

const bundleOf = (report: AuditReport): AuditBundle => ({
  kind: 'thoughtline-audit-bundle',
  query: 'test',
  exportedAt: new Date().toISOString(),
  truncated: false,
  reports: [report],
});
