import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { modelCallsGoneNote } from '../../../src/client/history/model-call-history';
import { auditReport } from '../../../src/audit';
import { ForkError, forkOfGoneStepsRefused } from '../../../src/client/fork/fork-error';
import { renderAuditMarkdown } from '../../../src/audit';
import { renderUnavailable } from '../../../src/domain/chain/render-unavailable';
import { runIdsOf } from '../../../src/client/runs/run-ids';
import { registerViewerRoute } from '../../../src/server/routes/viewer-route';
import { defineTool } from '../../../src/tools/define-tool';
import { pollFor } from '../../helpers/approval-helpers';
import { cliEnv, runCli } from '../../helpers/cli-process';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';
import { startServerHarness } from '../../server/server-harness';
import { launchChromium } from '../../viewer/headless-chromium';

const env = useTestEnv();

/** Handing over every 5 iterations (about 20 steps), so the 50-step tail no longer carries the first runs' steps. */
const ITERATIONS = 30;
const count = defineTool({
  name: 'count',
  description: 'Counts',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => `counted ${n}`,
});

/** Deletes a closed Temporal run, as retention does, and waits until the server no longer has it. */
async function expire(workflowId: string, runId: string): Promise<void> {
  await env.client.workflowService.deleteWorkflowExecution({
    namespace: env.client.options.namespace,
    workflowExecution: { workflowId, runId },
  });
  await pollFor(
    `run ${runId} gone`,
    async () => {
      try {
        await env.client.workflow.getHandle(workflowId, runId).describe();
        return undefined;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return true;
        throw err;
      }
    },
    120_000,
    500,
  );
}

describe('a long run whose first Temporal runs are past retention', () => {
  it(
    'reads the steps that are left and says which are missing (client, export, serve, the viewer); the audit rebuilds the model calls of the Temporal runs still there',
    { timeout: 240_000 },
    async () => {
      const model = createScriptedModel([
        ...Array.from({ length: ITERATIONS }, (_, i) => ({
          content: [say('Calling count for the task.'), useTool('count', { n: i + 1 })],
        })),
        { content: [useTool('finish', { result: 'counted' })] },
      ]);
      // Started through `serve` (with the viewer) by a developer of the tenant, so the tenant's auditor reads it there too.
      const s = await startServerHarness(env, {
        tools: [count],
        model,
        server: { extend: (app) => registerViewerRoute(app) },
      });
      try {
        const { agents } = s.h;
        const started = await s.call('dev', 'POST', '/v1/runs', {
          task: 'Count',
          model: SCRIPTED_MODEL,
          maxIterations: ITERATIONS + 5,
          continueAsNewEvery: 5,
        });
        expect(started.status).toBe(201);
        const workflowId = started.json.runId as string;
        await agents.result(workflowId);
        const whole = await agents.chain(workflowId, 'auditor');
        const total = whole.steps.length;
        const runIds = await runIdsOf(env.client, workflowId);
        expect(runIds.length).toBeGreaterThan(4);
        const audited = await auditReport(agents, workflowId, 'auditor');
        expect(audited.modelCalls).toHaveLength(ITERATIONS + 1);

        // The first four runs expire: their archives (the steps they left behind) go with them.
        await Promise.all(runIds.slice(0, 4).map((runId) => expire(workflowId, runId)));

        const left = await agents.chain(workflowId, 'auditor');
        const missing = left.unavailable!;
        expect(runIds.slice(0, 4)).toContain(missing.runId);
        expect(missing.throughStep).toBeGreaterThan(0);
        // Every step after the missing ones, exactly as before.
        expect(left.steps).toEqual(whole.steps.slice(missing.throughStep));
        expect(left.steps.at(-1)!.stepNumber).toBe(total);
        // A page of recent steps walks back no further than it needs, and misses nothing.
        const recent = await agents.chain(workflowId, 'auditor', { afterStep: total - 5 });
        expect(recent.steps.map((step) => step.stepNumber)).toEqual([1, 2, 3, 4, 5].map((i) => total - 5 + i));
        expect(recent.unavailable).toBeUndefined();
        // A page inside what is gone gives the first steps there are, and says what is missing.
        const first = await agents.chain(workflowId, 'auditor', { afterStep: 0, limit: 3 });
        expect(first).toMatchObject({ unavailable: missing });
        expect(first.steps).toEqual(whole.steps.slice(missing.throughStep, missing.throughStep + 3));

        // The auditor's export keeps the steps there are and says which are gone. The model calls of
        // the Temporal runs still there are rebuilt whole, the first run's from what its input carried.
        const report = await auditReport(agents, workflowId, 'auditor');
        expect(report.stepsUnavailable).toEqual(missing);
        expect(report.steps).toEqual(left.steps);
        const kept = audited.modelCalls!.filter(
          (call) => call.stepNumber > missing.throughStep && !runIds.slice(0, 4).includes(call.runId),
        );
        expect(kept.map((call) => call.runId)).toContain(runIds[4]);
        expect(report.modelCalls).toEqual(kept);
        expect(report.modelCallsUnavailable).toBe(modelCallsGoneNote(missing, { calls: kept }));
        expect(report.modelCallsUnavailable).toContain(`rebuilt from step ${kept[0]!.stepNumber} on`);
        expect(renderAuditMarkdown(report)).toContain(renderUnavailable(missing));
        // A fork starts from the run's first input, gone with its first Temporal run.
        await expect(agents.planFork(workflowId, { atStep: total - 2 })).rejects.toThrow(
          new ForkError(forkOfGoneStepsRefused(workflowId, missing)),
        );

        // serve: the chain's pages and the model-call view say the same.
        const page = await s.call(
          'auditor',
          'GET',
          `/v1/runs/${encodeURIComponent(workflowId)}/chain?view=auditor&limit=500`,
        );
        expect(page.status).toBe(200);
        expect(page.json.chain.unavailable).toEqual(missing);
        expect(page.json.chain.steps).toEqual(left.steps);
        const calls = await s.call('auditor', 'GET', `/v1/runs/${encodeURIComponent(workflowId)}/model-calls`);
        expect(calls.status).toBe(200);
        expect(calls.json).toEqual({ modelCalls: kept, modelCallsUnavailable: report.modelCallsUnavailable });

        // `thoughtline chain` says it before the steps there are.
        const printed = await runCli(['chain', workflowId, '--role', 'auditor'], cliEnv({}));
        expect(printed.code).toBe(0);
        expect(printed.stdout).toContain(`\n\n${renderUnavailable(missing)}\n\n`);
        const numbered = printed.stdout
          .split('\n')
          .flatMap((line) => /^\s*(\d+) /.exec(line)?.[1] ?? [])
          .map(Number);
        expect(numbered).toEqual(left.steps.map((step) => step.stepNumber));

        // The viewer says which steps are gone, shows every step there is, and pages back no further.
        const browser = await launchChromium();
        try {
          const tab = await browser.context.newPage();
          const errors: string[] = [];
          tab.on('pageerror', (err) => errors.push(err.message));
          await tab.goto(
            `${s.server.url}/#token=${encodeURIComponent(s.tokens.auditor)}&/runs/${encodeURIComponent(workflowId)}`,
          );
          await tab.locator('.steps-gone', { hasText: renderUnavailable(missing) }).waitFor({ timeout: 20_000 });
          await tab.locator('.run-meta .status[data-state="completed"]').waitFor();
          const shown = async () =>
            await tab
              .locator('.steps .step')
              .evaluateAll((els) =>
                els.map((el) => Number((el as unknown as { dataset: { step: string } }).dataset.step)),
              );
          // Earlier pages, while it offers them: down to the first step there is, never into the gone ones.
          const earlier = tab.locator('button.earlier');
          for (let pages = 0; pages < 5 && (await earlier.isVisible()); pages++) {
            await earlier.click();
            await expect.poll(() => earlier.isEnabled()).toBe(true);
          }
          expect(await earlier.isHidden()).toBe(true);
          await expect.poll(shown).toEqual(left.steps.map((step) => step.stepNumber));
          expect(errors).toEqual([]);
        } finally {
          await browser.close();
        }
      } finally {
        await s.close();
      }
    },
  );
});
