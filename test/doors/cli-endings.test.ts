import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';
import { ENDING_ANSWER, ENDING_ERROR, ENDING_GIVE_UP, ENDINGS, endingModel, type Ending } from '../helpers/run-endings';
import { startEndingRuns } from '../helpers/start-ending-runs';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();

/** The store off: every read comes from Temporal, as on a fresh clone. */
const cli = () => cliEnv({ THOUGHTLINE_STORE: 'off', THOUGHTLINE_USER: 'dev' });

type Printed = Awaited<ReturnType<typeof runCli>>;

let ids: Record<Ending, string>;
/** What each command printed, by its arguments joined with spaces. */
const printed = new Map<string, Printed>();
const out = (...args: string[]): Printed => printed.get(args.join(' '))!;

beforeAll(async () => {
  const model = endingModel();
  const h = await createHarness(env, { tools: testTools().tools, models: { scripted: model } });
  ids = await h.worker.runUntil(() => startEndingRuns(h.agents, model));
  // The worker is gone from here on: reading an ended run needs none.
  const commands = [
    ...ENDINGS.map((e) => ['status', ids[e]]),
    ['status', ids.error, '--json'],
    ['chain', ids.error],
    ...(['error', 'cancelled', 'failure'] as const).map((e) => ['watch', ids[e]]),
  ];
  // Three processes at a time: each is mostly Node starting up.
  const next = [...commands];
  const worker = async (): Promise<void> => {
    for (let args = next.shift(); args; args = next.shift()) printed.set(args.join(' '), await runCli(args, cli()));
  };
  await Promise.all([worker(), worker(), worker()]);
}, 240_000);

const lines = (stdout: string): string[] => stdout.split('\n');

/** The CLI doors of issue 62 on the seven endings, as real CLI processes on the real dev server. */
describe('the CLI says how a run ended and why', () => {
  it('status: each ending its own state, reason, summary and answer or error', () => {
    const status = {} as Record<Ending, string[]>;
    for (const ending of ENDINGS) {
      const { code, stdout, stderr } = out('status', ids[ending]);
      expect(code, `${ending}: ${stderr}`).toBe(0);
      status[ending] = lines(stdout);
    }
    const printed = status;
    const head = (ending: Ending) => printed[ending].slice(0, 2);

    expect(head('success')).toEqual([`Run ${ids.success}: completed`, 'Ended:       completed · success']);
    expect(printed.success).toContain(`Final answer: ${ENDING_ANSWER}`);

    expect(head('failure')).toEqual([`Run ${ids.failure}: failed`, `Ended:       failed · failure: ${ENDING_GIVE_UP}`]);
    expect(printed.failure).toContain(`Ungrounded summary (failure): ${ENDING_GIVE_UP}`);

    const [run, ended] = head('error');
    expect(run).toBe(`Run ${ids.error}: failed`);
    expect(ended).toBe(`Ended:       failed · error: Model call failed: ModelAuthentication: ${ENDING_ERROR}`);
    expect(printed.error).toContain(`Error:       Model call failed: ModelAuthentication: ${ENDING_ERROR}`);

    expect(head('cancelled')).toEqual([`Run ${ids.cancelled}: cancelled`, 'Ended:       cancelled · cancelled']);
    expect(printed.cancelled.find((l) => l.startsWith('Ungrounded summary (cancelled): '))).toContain(
      'The run was cancelled (changed my mind, by dev)',
    );

    const partial = {
      stalled: 'Summary: alpha is 50; I kept asking for it again.',
      max_iterations: 'So far: alpha is 50.',
      cost_budget: 'Stopped after 2 iterations without a final answer. Cost budget: $0.050000 of $0.01 spent',
    };
    for (const limit of ['stalled', 'max_iterations', 'cost_budget'] as const) {
      expect(head(limit), limit).toEqual([`Run ${ids[limit]}: completed`, `Ended:       completed · ${limit}`]);
      // Whatever it managed, titled as what it is, never as a plain final answer.
      expect(
        printed[limit].find((l) => l.startsWith(`Partial answer (${limit}): `)),
        limit,
      ).toContain(partial[limit]);
      expect(
        printed[limit].some((l) => l.startsWith('Final answer:')),
        limit,
      ).toBe(false);
    }
    // No ended run reads as running, and none shows an error but the error run.
    for (const ending of ENDINGS) {
      expect(
        printed[ending].some((l) => l.startsWith('Error:')),
        ending,
      ).toBe(ending === 'error');
    }
  });

  it('status --json carries the same ending', () => {
    const { stdout } = out('status', ids.error, '--json');
    const record = JSON.parse(stdout) as { ending?: { state: string; terminationReason: string; error: string } };
    expect(record.ending).toMatchObject({ state: 'failed', terminationReason: 'error' });
    expect(record.ending!.error).toContain(ENDING_ERROR);
  });

  it('an error run: chain, watch and status each print the reason', () => {
    const chain = out('chain', ids.error);
    expect(chain.code, chain.stderr).toBe(0);
    const failedStep = lines(chain.stdout).find((l) => /^\s*\d+ Model failed /.test(l));
    expect(failedStep, chain.stdout).toContain(`ModelAuthentication: ${ENDING_ERROR}`);
    expect(chain.stdout).not.toMatch(/Model reply/);

    const watch = out('watch', ids.error);
    const watched = lines(watch.stdout);
    expect(
      watched.find((l) => /^\s*\d+ Model failed /.test(l)),
      watch.stdout,
    ).toContain(ENDING_ERROR);
    expect(watched).toContain('Result: error after 1 iteration, 1 model call, 0 tool calls');
    expect(watched).toContain(`Ended:  failed · error: Model call failed: ModelAuthentication: ${ENDING_ERROR}`);
    expect(watched.find((l) => l.startsWith('Error:'))).toContain(ENDING_ERROR);

    expect(out('status', ids.error).stdout).toContain(ENDING_ERROR);
  });

  it('watch of a cancelled run reads cancelled, a failure failed, never completed', () => {
    for (const [ending, ended] of [
      ['cancelled', 'Ended:  cancelled · cancelled'],
      ['failure', `Ended:  failed · failure: ${ENDING_GIVE_UP}`],
    ] as const) {
      const { stdout } = out('watch', ids[ending]);
      expect(lines(stdout), stdout).toContain(ended);
      expect(stdout).not.toMatch(/^Ended: +completed/m);
    }
  });
});
