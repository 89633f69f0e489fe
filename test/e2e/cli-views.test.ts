import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { ViewerRole, type AgentStatus } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { statusQuery } from '../../src/workflows/messages';
import { waitForPending } from '../helpers/approval-helpers';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

const KEY = 'AKIAIOSFODNN7EXAMPLE';
const CARD = '4111111111111111';
const ARGS = { amount: 25, card: { number: CARD }, memo: `charged with ${KEY}` };
/** Only the auditor's view shows a tool's sensitive fields; no view shows a secret. */
const seesCard = (role: ViewerRole): boolean => role === 'auditor';

const asNobody = cliEnv({ THOUGHTLINE_USER: 'alice', THOUGHTLINE_ROLES: '' });

/** A payment tool whose card number is a sensitive field; it always needs approval. */
function chargeTool(ran: unknown[]) {
  return defineTool({
    name: 'charge_card',
    description: 'Charges a card',
    input: z.object({ amount: z.number(), card: z.object({ number: z.string() }), memo: z.string() }),
    approval: 'always',
    sensitiveFields: ['card.number'],
    retry: { maximumAttempts: 1 },
    execute: (args) => {
      ran.push(args);
      return { ok: true, card: { number: args.card.number } };
    },
  });
}

const exportAs = (workflowId: string, role: ViewerRole, format: 'json' | 'md') =>
  runCli(['export', workflowId, '--format', format, '--role', role], asNobody);

describe('views of a run with a pending payment: status query, CLI status, live and final exports', () => {
  it(
    'show the secret token to nobody and the sensitive card number only to the auditor; the approval still runs the real call',
    { timeout: 180_000 },
    async () => {
      const ran: unknown[] = [];
      const model = createScriptedModel([
        { content: [useTool('charge_card', ARGS, 'toolu_pay1')] },
        { content: [useTool('finish', { result: `Charged card ${CARD}; the gateway key was ${KEY}` })] },
      ]);
      const { observed, result, workflowId } = await runScripted(env, {
        model,
        tools: [chargeTool(ran)],
        input: { task: 'Pay the invoice', approvalTimeoutMs: 120_000 },
        during: async ({ h, workflowId }) => {
          await waitForPending(h.agents, workflowId);
          const handle = h.agents.getHandle(workflowId);
          // One at a time: the harness's worker caches no workflows, and overlapping queries can be dropped.
          const queried: Record<string, AgentStatus> = { none: await handle.query(statusQuery) };
          for (const role of ViewerRole.options) queried[role] = await handle.query(statusQuery, role);
          const refused = await handle.query(statusQuery, 'root' as ViewerRole).then(
            () => 'answered',
            (err: unknown) => String(err),
          );
          const cliStatus = await runCli(['status', workflowId], asNobody);
          const cliStatusAuditor = await runCli(['status', workflowId, '--json', '--role', 'auditor'], asNobody);
          const liveExports = [];
          for (const role of ViewerRole.options) liveExports.push(await exportAs(workflowId, role, 'json'));
          const approved = await runCli(['approve', workflowId, 'toolu_pay1', '--yes'], asNobody);
          return { queried, refused, cliStatus, cliStatusAuditor, liveExports, approved };
        },
      });
      model.verify();
      const { queried, refused, cliStatus, cliStatusAuditor, liveExports, approved } = observed;

      // The status query: no role means developer, as for `chain`.
      for (const [role, status] of Object.entries(queried)) {
        const text = JSON.stringify(status);
        expect(text, role).toContain('charge_card');
        expect(text, role).not.toContain(KEY);
        expect(text.includes(CARD), role).toBe(role === 'auditor');
      }
      expect(queried['none']!.pendingApprovals[0]!.arguments).toMatchObject({
        amount: 25,
        card: { number: '[SENSITIVE]' },
      });
      expect(refused).toContain('Valid roles: end_user, developer, auditor');

      expect(cliStatus.code, cliStatus.stderr).toBe(0);
      expect(cliStatus.stdout).toContain('toolu_pay1  charge_card');
      expect(cliStatus.stdout).toContain('[SENSITIVE]');
      expect(cliStatus.stdout).not.toContain(CARD);
      expect(cliStatus.stdout).not.toContain(KEY);
      expect(cliStatusAuditor.stdout).toContain(CARD);
      expect(cliStatusAuditor.stdout).not.toContain(KEY);

      ViewerRole.options.forEach((role, i) => {
        const live = liveExports[i]!;
        expect(live.code, live.stderr).toBe(0);
        expect(JSON.parse(live.stdout).outcome.state).toBe('running');
        expect(live.stdout, role).not.toContain(KEY);
        expect(live.stdout.includes(CARD), role).toBe(seesCard(role));
      });

      // The approver saw the redacted view; the run executed the real arguments.
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain('approved by alice: charge_card (toolu_pay1)');
      expect(ran).toEqual([ARGS]);
      expect(result.success).toBe(true);

      const finals = await Promise.all(
        ViewerRole.options.flatMap((role) =>
          (['json', 'md'] as const).map(async (format) => ({
            role,
            format,
            out: await exportAs(workflowId, role, format),
          })),
        ),
      );
      for (const { role, format, out } of finals) {
        expect(out.code, out.stderr).toBe(0);
        expect(out.stdout, `${role} ${format}`).toContain('Charged card');
        expect(out.stdout, `${role} ${format}`).not.toContain(KEY);
        expect(out.stdout.includes(CARD), `${role} ${format}`).toBe(seesCard(role));
      }
    },
  );
});
