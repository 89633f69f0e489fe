import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { SENSITIVE } from '../../../src/domain/secrets/sensitive-fields';
import type { AgentInputInit, ReasoningChain, ViewerRole } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { chainQuery } from '../../../src/workflows/messages';
import { callStepOfTool, resultStepOfTool, stepsOfTool, toolResultOfTool } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { ScriptBook, waitFor, sharedWorker } from '../../helpers/people-helpers';
import { SCRIPTED_MODEL, scriptedInput } from '../../helpers/scripted-input';

const CARD = '4111111111111111';
/** Secrets a tool returns: the tool activity redacts these before they reach the chain. */
const TOOL_SECRETS = {
  anthropic: 'sk-ant-api03-TOOLSECRET0123456789abcdef',
  header: 'Bearer tok9f8e7d6c5b4a3_TOOLBEARER',
  pem: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAtoolpembody0123456789\n-----END RSA PRIVATE KEY-----',
  aws: 'AKIATOOLSECRET000001',
};
/** Secrets in the model's own words: nothing redacts them before the chain, so only the views can. */
const MODEL_THOUGHT = [
  'Gathering facts. Using sk-ant-api03-MODELTHOUGHT0123456789 and AKIAMODELTHOUGHT1234,',
  'header Bearer mdl8x7y6z5w4v3_MODELBEARER, and this key:',
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANmodelpembody0123\n-----END PRIVATE KEY-----',
].join(' ');
/** Distinctive parts of every secret above; none may appear in any view. */
const SECRET_MARKS = [
  'sk-ant-',
  'TOOLSECRET',
  'TOOLBEARER',
  'toolpembody',
  'MODELTHOUGHT',
  'MODELBEARER',
  'modelpembody',
  'AKIA',
];

const paid: string[] = [];
const pay = defineTool({
  name: 'pay',
  description: 'Pays with a card',
  input: z.object({ card: z.string(), amount: z.number() }),
  requiredRoles: ['finance'],
  sensitiveFields: ['card'],
  approval: 'never',
  execute: ({ card, amount }, { idempotencyKey }) => {
    paid.push(idempotencyKey.split(':')[0]!);
    return { card, amount, status: 'paid' };
  },
});
const adminPurge = defineTool({
  name: 'admin_purge',
  description: 'Purges a cache; admins only, and never shown outside audits',
  input: z.object({ cache: z.string() }),
  requiredRoles: ['admin'],
  visibility: 'hidden',
  approval: 'never',
  execute: ({ cache }) => ({ purged: cache }),
});
const auditNote = defineTool({
  name: 'audit_note',
  description: 'Writes an internal audit note',
  input: z.object({ note: z.string() }),
  visibility: 'hidden',
  approval: 'never',
  execute: ({ note }) => ({ stored: true, note }),
});
const lookupCity = defineTool({
  name: 'lookup_city',
  description: 'Looks up a number for a city',
  input: z.object({ key: z.string() }),
  effects: 'none',
  visibility: 'summary',
  summaryTemplate: 'Looked up {key}: {value}',
  execute: ({ key }) => ({ key, value: 42 }),
});
const chargeCard = defineTool({
  name: 'charge_card',
  description: 'Charges a card',
  input: z.object({ card: z.string(), amount: z.number() }),
  sensitiveFields: ['card'],
  approval: 'always',
  execute: ({ card, amount }) => ({ card, amount, status: 'charged' }),
});
const readConfig = defineTool({
  name: 'read_config',
  description: 'Reads the service configuration',
  input: z.object({}),
  effects: 'none',
  execute: () => ({ ...TOOL_SECRETS }),
});
const ping = (name: string) =>
  defineTool({
    name,
    description: 'Pings a target',
    input: z.object({ target: z.string() }),
    effects: 'none',
    execute: ({ target }) => ({ target, pong: true }),
  });

const book = new ScriptBook();
const shared = sharedWorker(
  () => [pay, adminPurge, auditNote, lookupCity, chargeCard, readConfig, ping('ext_ping'), ping('ext_pong')],
  book.provider,
);

const ROLES: readonly ViewerRole[] = ['auditor', 'developer', 'end_user'];

function expectNoSecrets(chain: ReasoningChain, where: string): void {
  const text = JSON.stringify(chain);
  for (const mark of SECRET_MARKS) expect(text, `${where} shows "${mark}"`).not.toContain(mark);
}

describe('caller roles', () => {
  it('runs a tool with requiredRoles only for a caller holding one; others get an error observation and go on', async () => {
    const runs: Record<'dev' | 'finance' | 'none', Partial<AgentInputInit>> = {
      dev: { caller: { id: 'u1', roles: ['dev'] } },
      finance: { caller: { id: 'u2', roles: ['dev', 'finance'] } },
      none: {},
    };
    const started = await Promise.all(
      Object.entries(runs).map(async ([name, extra]) => {
        const task = `roles: ${name} caller`;
        const model = book.script(task, [
          { content: [useTool('pay', { card: CARD, amount: 7 }, `toolu_pay_${name}`)] },
          { content: [useTool('finish', { result: `${name} done` })] },
        ]);
        const handle = await shared.h.agents.start(scriptedInput(task, extra));
        return { name, model, handle, result: await handle.result() };
      }),
    );
    const byName = Object.fromEntries(started.map((r) => [r.name, r]));
    for (const { model, result } of started) {
      model.verify();
      expect(result.success).toBe(true);
    }
    // Only the finance caller's run executed the tool.
    expect(paid).toEqual([byName['finance']!.handle.workflowId]);

    const observation = (name: string) => {
      const block = byName[name]!.model.calls[1]!.messages.at(-1)!.content[0];
      return block?.type === 'tool_result' ? block : undefined;
    };
    expect(observation('dev')).toMatchObject({ toolUseId: 'toolu_pay_dev', isError: true });
    expect(observation('dev')!.content).toContain('finance');
    expect(observation('dev')!.content).toContain('u1 has dev');
    expect(observation('none')).toMatchObject({ toolUseId: 'toolu_pay_none', isError: true });
    expect(observation('none')!.content).toContain('finance');
    expect(observation('none')!.content).toContain('no caller');
    expect(observation('finance')).toMatchObject({ toolUseId: 'toolu_pay_finance', isError: false });
    expect(JSON.parse(observation('finance')!.content)).toMatchObject({ status: 'paid' });
    expect(toolResultOfTool(byName['dev']!.result.chain.steps, 'pay')).toMatchObject({
      success: false,
      error: expect.stringContaining('finance'),
    });

    // A refused call never reaches an activity.
    const activities = await scheduledActivities(shared.env.client, byName['dev']!.handle.workflowId);
    expect(activities.map((a) => a.type)).toEqual(['callModel', 'callModel']);
  });

  it('keeps a refused call’s sensitive fields and hidden level in the developer and end-user views', async () => {
    const task = 'roles: refused calls keep their tool’s view settings';
    const model = book.script(task, [
      {
        content: [
          useTool('pay', { card: CARD, amount: 9 }, 'toolu_pay_refused'),
          useTool('admin_purge', { cache: 'sessions' }, 'toolu_purge_refused'),
        ],
      },
      { content: [useTool('finish', { result: 'could not pay' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task, { caller: { id: 'u3', roles: ['dev'] } }));
    const result = await handle.result();
    model.verify();
    expect(toolResultOfTool(result.chain.steps, 'admin_purge')).toMatchObject({
      success: false,
      error: expect.stringContaining('admin'),
    });
    for (const role of ['developer', 'end_user'] as const) {
      const view = await shared.h.agents.chain(handle.workflowId, role);
      expect
        .soft(callStepOfTool(view.steps, 'pay')?.toolCall.arguments, `${role} view of the refused call's arguments`)
        .toEqual({ card: SENSITIVE, amount: 9 });
      expect
        .soft(stepsOfTool(view.steps, 'admin_purge'), `${role} view shows the hidden tool's refused call`)
        .toEqual([]);
    }
  });
});

describe('model allow-list', () => {
  it('refuses a model or fallback outside allowedModels before any call, and allows provider/model names', async () => {
    const cases = {
      outside: { allowedModels: ['other-model'] },
      allowed: { allowedModels: ['scripted/scripted-model'] },
      fallback: {
        allowedModels: ['scripted-model'],
        fallbacks: [{ provider: 'scripted' as const, model: 'backup-model' }],
      },
    };
    const runs = await Promise.all(
      Object.entries(cases).map(async ([name, { allowedModels, ...model }]) => {
        const task = `models: ${name}`;
        const script = book.script(
          task,
          name === 'allowed' ? [{ content: [useTool('finish', { result: 'allowed' })] }] : [],
        );
        const handle = await shared.h.agents.start({ task, allowedModels, model: { ...SCRIPTED_MODEL, ...model } });
        return { name, script, id: handle.workflowId, result: await handle.result() };
      }),
    );
    const [outside, allowed, fallback] = runs;

    expect(outside!.result).toMatchObject({ success: false, terminationReason: 'error', modelCalls: 0 });
    expect(outside!.result.error).toContain('allowedModels');
    expect(outside!.result.error).toContain('scripted/scripted-model');
    expect(outside!.script.calls).toHaveLength(0);
    expect(await scheduledActivities(shared.env.client, outside!.id)).toEqual([]);
    expect(outside!.result.chain.steps.some((s) => s.type === 'thinking' && s.thought.startsWith('Refused:'))).toBe(
      true,
    );

    expect(allowed!.result).toMatchObject({ success: true, finalAnswer: 'allowed' });
    expect(allowed!.script.calls).toHaveLength(1);

    expect(fallback!.result).toMatchObject({ success: false, terminationReason: 'error', modelCalls: 0 });
    expect(fallback!.result.error).toContain('scripted/backup-model');
    expect(fallback!.result.error).not.toContain('scripted/scripted-model');
    expect(fallback!.script.calls).toHaveLength(0);
    for (const run of runs) run.script.verify();
  });
});

describe('role views of the chain', () => {
  it('shows each role its view, live (waiting for an approval) and finished, through the query and the client', async () => {
    const task = 'views: every kind of step';
    const model = book.script(task, [
      {
        content: [
          say(MODEL_THOUGHT),
          useTool('audit_note', { note: 'started' }),
          useTool('lookup_city', { key: 'alpha' }),
          useTool('read_config', {}),
        ],
      },
      { content: [say('Charging now.'), useTool('charge_card', { card: CARD, amount: 12 }, 'toolu_charge')] },
      { content: [useTool('finish', { result: 'Charged 12; alpha is 42.' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task));
    const id = handle.workflowId;
    await waitFor('the charge to wait for approval', async () =>
      (await shared.h.agents.pendingApprovals(id)).some((r) => r.callId === 'toolu_charge'),
    );

    // Live: the run is waiting, so agents.chain goes through the `chain` query.
    const live = {} as Record<ViewerRole, ReasoningChain>;
    for (const role of ROLES) live[role] = await shared.h.agents.chain(id, role);
    expect(await handle.query(chainQuery)).toEqual(live.developer);
    expect(await handle.query(chainQuery, 'end_user')).toEqual(live.end_user);
    for (const role of ROLES) {
      expectNoSecrets(live[role], `live ${role}`);
      expect(live[role].view?.role).toBe(role);
    }
    expect(stepsOfTool(live.auditor.steps, 'audit_note')).toHaveLength(2);
    expect(live.auditor.approvals?.[0]?.arguments['card']).toBe(CARD);
    for (const role of ['developer', 'end_user'] as const) {
      expect(stepsOfTool(live[role].steps, 'audit_note')).toEqual([]);
      expect(live[role].view?.hiddenSteps).toBe(2);
      expect(live[role].approvals?.[0]?.arguments).toEqual({ card: SENSITIVE, amount: 12 });
      expect(callStepOfTool(live[role].steps, 'charge_card')?.toolCall.arguments).toEqual({
        card: SENSITIVE,
        amount: 12,
      });
    }
    expect(toolResultOfTool(live.end_user.steps, 'lookup_city')?.result).toBe('Looked up alpha: 42');
    expect(toolResultOfTool(live.developer.steps, 'lookup_city')?.result).toEqual({ key: 'alpha', value: 42 });

    await shared.h.agents.decide(id, { callId: 'toolu_charge', approved: true, by: { id: 'ann', roles: [] } });
    const result = await handle.result();
    model.verify();
    expect(result.success).toBe(true);

    // Finished: the client views the result; the query replays the run. Both agree.
    const done = {} as Record<ViewerRole, ReasoningChain>;
    for (const role of ROLES) {
      done[role] = await shared.h.agents.chain(id, role);
      expect(await handle.query(chainQuery, role), `${role}: query and client differ`).toEqual(done[role]);
      expectNoSecrets(done[role], `finished ${role}`);
      expect(done[role].steps.at(-1)).toMatchObject({
        type: 'synthesis',
        synthesis: { conclusion: 'Charged 12; alpha is 42.' },
      });
    }

    const { auditor, developer, end_user: endUser } = done;
    // Auditor: everything, hidden steps and sensitive values included.
    expect(auditor.steps).toHaveLength(result.chain.steps.length);
    expect(auditor.view).toEqual({ role: 'auditor', hiddenSteps: 0 });
    expect(toolResultOfTool(auditor.steps, 'audit_note')?.result).toEqual({ stored: true, note: 'started' });
    expect(toolResultOfTool(auditor.steps, 'charge_card')?.result).toMatchObject({ card: CARD, status: 'charged' });
    const auditorThought = auditor.steps.find((s) => s.type === 'thinking' && s.thought.startsWith('Gathering facts.'));
    expect(auditorThought?.type === 'thinking' && auditorThought.thought).toContain('[REDACTED]');

    // Developer: hidden steps left out (and counted), summary steps in full, sensitive fields redacted.
    expect(developer.view).toEqual({ role: 'developer', hiddenSteps: 2 });
    expect(developer.steps).toHaveLength(result.chain.steps.length - 2);
    expect(stepsOfTool(developer.steps, 'audit_note')).toEqual([]);
    expect(callStepOfTool(developer.steps, 'lookup_city')?.toolCall.arguments).toEqual({ key: 'alpha' });
    expect(toolResultOfTool(developer.steps, 'lookup_city')?.result).toEqual({ key: 'alpha', value: 42 });
    expect(toolResultOfTool(developer.steps, 'charge_card')?.result).toEqual({
      card: SENSITIVE,
      amount: 12,
      status: 'charged',
    });
    expect(JSON.stringify(developer)).not.toContain(CARD);
    // Step numbers keep their gaps.
    expect(developer.steps.map((s) => s.stepNumber)).toEqual(
      result.chain.steps.filter((s) => s.visibility.level !== 'hidden').map((s) => s.stepNumber),
    );

    // End user: summaries for summary steps and model calls; sensitive fields redacted; the answer kept.
    expect(endUser.view).toEqual({ role: 'end_user', hiddenSteps: 2 });
    expect(callStepOfTool(endUser.steps, 'lookup_city')?.toolCall.arguments).toEqual({});
    expect(toolResultOfTool(endUser.steps, 'lookup_city')?.result).toBe('Looked up alpha: 42');
    const modelSteps = endUser.steps.filter(
      (s) => s.model !== undefined || (s.type === 'tool_call' && s.toolCall.toolType === 'llm'),
    );
    expect(modelSteps.length).toBe(6);
    for (const s of modelSteps) {
      if (s.type === 'tool_call') expect(s.toolCall.arguments).toEqual({});
      if (s.type === 'tool_result') expect(s.toolResult.result).toBe('Model call (scripted-model)');
    }
    expect(toolResultOfTool(endUser.steps, 'charge_card')?.result).toEqual({
      card: SENSITIVE,
      amount: 12,
      status: 'charged',
    });
    expect(JSON.stringify(endUser)).not.toContain(CARD);
    expect(JSON.stringify(endUser)).not.toContain('"note":"started"');
  });

  it('never stores tool-produced secrets in the raw chain: the tool activity redacts them, and the model never sees them', async () => {
    const task = 'views: raw chain of a secret-returning tool';
    const model = book.script(task, [
      { content: [useTool('read_config', {})] },
      { content: [useTool('finish', { result: 'config read' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task));
    const result = await handle.result();
    model.verify();
    const toolSteps = result.chain.steps.filter(
      (s) => s.model === undefined && (s.type === 'tool_result' || s.type === 'tool_call'),
    );
    const text = JSON.stringify(toolSteps);
    for (const mark of ['TOOLSECRET', 'TOOLBEARER', 'toolpembody', 'AKIA', 'sk-ant-'])
      expect(text, `raw chain shows "${mark}"`).not.toContain(mark);
    expect(toolResultOfTool(result.chain.steps, 'read_config')?.result).toEqual({
      anthropic: '[REDACTED]',
      header: 'Bearer [REDACTED]',
      pem: '[REDACTED]',
      aws: '[REDACTED]',
    });
    const seen = model.calls[1]!.messages.at(-1)!.content[0];
    expect(seen?.type === 'tool_result' && seen.content).toContain('[REDACTED]');
    expect(JSON.stringify(model.calls[1]!.messages)).not.toContain('TOOLSECRET');
    // The CLI's `chain --role end_user` is agents.chain: the same view.
    expectNoSecrets(await shared.h.agents.chain(handle.workflowId, 'end_user'), 'end_user');
  });

  it('keeps secrets and sensitive fields out of the Web UI’s current details while a run waits', async () => {
    const task = 'views: web ui details';
    const model = book.script(task, [
      { content: [say(MODEL_THOUGHT), useTool('charge_card', { card: CARD, amount: 3 }, 'toolu_charge_ui')] },
      { content: [useTool('finish', { result: 'not charged' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task));
    const id = handle.workflowId;
    await waitFor(
      'the charge to wait for approval',
      async () => (await shared.h.agents.pendingApprovals(id)).length > 0,
    );
    const meta = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    await shared.h.agents.decide(id, {
      callId: 'toolu_charge_ui',
      approved: false,
      by: { id: 'ann', roles: [] },
      reason: 'test',
    });
    await handle.result();
    model.verify();
    expect(meta.currentDetails).toContain('charge_card');
    for (const mark of [...SECRET_MARKS, CARD])
      expect(meta.currentDetails, `Web UI details show "${mark}"`).not.toContain(mark);
  });

  it('applies visibilityByToolType, with visibilityByTool overriding it and the tool’s own setting', async () => {
    const task = 'views: visibility by type and by tool';
    const model = book.script(task, [
      {
        content: [
          useTool('ext_ping', { target: 'a' }),
          useTool('ext_pong', { target: 'b' }),
          useTool('lookup_city', { key: 'beta' }),
        ],
      },
      { content: [useTool('finish', { result: 'pinged' })] },
    ]);
    const handle = await shared.h.agents.start(
      scriptedInput(task, {
        visibilityByToolType: { external: { level: 'summary', summaryTemplate: 'External call to {target}' } },
        visibilityByTool: {
          ext_pong: { level: 'full' },
          lookup_city: { level: 'summary', summaryTemplate: 'City {key} is {value}' },
        },
      }),
    );
    const result = await handle.result();
    model.verify();
    const raw = result.chain.steps;
    expect(resultStepOfTool(raw, 'ext_ping')?.visibility).toEqual({ level: 'summary', summary: 'External call to a' });
    expect(callStepOfTool(raw, 'ext_ping')?.visibility).toEqual({ level: 'summary', summary: 'External call to a' });
    expect(resultStepOfTool(raw, 'ext_pong')?.visibility).toEqual({ level: 'full' });
    expect(resultStepOfTool(raw, 'lookup_city')?.visibility).toEqual({ level: 'summary', summary: 'City beta is 42' });

    const endUser = await shared.h.agents.chain(handle.workflowId, 'end_user');
    expect(toolResultOfTool(endUser.steps, 'ext_ping')?.result).toBe('External call to a');
    expect(callStepOfTool(endUser.steps, 'ext_ping')?.toolCall.arguments).toEqual({});
    expect(toolResultOfTool(endUser.steps, 'ext_pong')?.result).toEqual({ target: 'b', pong: true });
    expect(toolResultOfTool(endUser.steps, 'lookup_city')?.result).toBe('City beta is 42');
    const developer = await shared.h.agents.chain(handle.workflowId, 'developer');
    expect(toolResultOfTool(developer.steps, 'ext_ping')?.result).toEqual({ target: 'a', pong: true });
  });
});
