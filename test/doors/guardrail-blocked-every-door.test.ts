import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import type { ViewerRole } from '../../src/domain';
import { defineGuardrail } from '../../src/guardrails/define-guardrail';
import { useTestEnv } from '../helpers/temporal-env';
import { DOOR_INVENTORY } from './door-inventory';
import { VIEWS, shown } from './door-reads';
import { DOOR_POLICY, THOUGHT, doorTools, heldModel } from './door-run';
import { DOORS_SHOWING_THE_RUN, readEveryDoor, type EveryDoorRun } from './read-every-door';

/*
 * An answer an output guardrail blocks never reaches anyone, through any door: the run is read
 * live and ended, in every view (the auditor's too), by the door inventory's own reader.
 */

const env = useTestEnv();
/** Only the blocked answer (and the model's live text writing it) holds this word. */
const BLOCKED = 'NARWHALVAULT';
const TASK = 'Find the vault code of customer c-1.';
const HIDDEN: Record<ViewerRole, readonly string[]> = { end_user: [BLOCKED], developer: [BLOCKED], auditor: [BLOCKED] };

const noCodes = defineGuardrail({
  name: 'no-codes',
  stage: 'output',
  check: (text) => (text.includes(BLOCKED) ? { verdict: 'block', reason: 'an internal code' } : { verdict: 'pass' }),
});

let run: EveryDoorRun;

beforeAll(async () => {
  run = await readEveryDoor(env, {
    name: 'guardrail-doors',
    tools: doorTools(),
    // The answer's turn writes the word in its text (streamed) and in the finish call.
    model: heldModel([
      {
        content: [
          say(`${THOUGHT}: read the account of c-1 first.`),
          useTool('lookup_account', { customer: 'c-1' }, 'toolu_g1'),
        ],
      },
      {
        content: [
          say(`The vault code is ${BLOCKED}; answering now.`),
          useTool('finish', { result: `The vault code of c-1 is ${BLOCKED}.` }, 'toolu_g2'),
        ],
      },
    ]),
    policy: DOOR_POLICY,
    task: TASK,
    messageId: 'guardrail-doors-1',
    hidden: HIDDEN,
    input: { guardrails: ['no-codes'] },
    guardrails: [noCodes],
  });
}, 240_000);

afterAll(async () => {
  await run?.close();
});

const readDoors = Object.entries(DOOR_INVENTORY)
  .filter(([, e]) => 'read' in e)
  .map(([door]) => door)
  .filter((door) => door !== 'POST /a2a/:_' && door !== 'POST /v1/ag-ui/:_');

/** The doors that show the run, each showing in every view that the guardrail acted (as the inventory's list read before: without the push). */
const SHOW_THE_GUARDRAIL = DOORS_SHOWING_THE_RUN.filter((door) => door !== 'a2a push');

describe('an answer an output guardrail blocked reaches no one, through any door, in any view', () => {
  it('the run ended not successful, as `custom`, naming the guardrail', async () => {
    const result = await run.s.h.agents.result(run.runId);
    expect(result).toMatchObject({ success: false, terminationReason: 'custom' });
    expect(result.finalAnswer).toBe('The answer was withheld: guardrail "no-codes" blocked it: an internal code.');
  });

  it('every door the inventory reads was read, and the step-showing ones show the guardrail acted', () => {
    const unread = readDoors.filter((door) => !run.reads.of(door));
    expect(unread).toEqual([]);
    for (const door of SHOW_THE_GUARDRAIL)
      for (const view of VIEWS) expect(run.reads.of(door)?.[view], `${door} ${view}`).toContain('no-codes');
    expect(run.reads.of('cli search control')?.developer).toContain('found by c-1');
  });

  it.each(readDoors)('%s shows none of the blocked answer', (door) => {
    const views = run.reads.of(door) ?? {};
    const leaks = VIEWS.filter((view) => shown(views[view] ?? '', HIDDEN[view]).length > 0);
    expect(leaks).toEqual([]);
  });
});
