import { MAX_RAISE_ITERATIONS, MAX_RAISE_TOKENS, MAX_RAISE_USD, raiseInWords } from '../../../domain';
import { writeSafe } from '../../render/terminal-safe';
import { connect } from '../../setup/runtime';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, person, PERSON_OPTIONS, positiveInteger, RUN_ID, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { actingPerson } from './decide-call';
import { sendToOpenRun } from './require-open-run';

export const RAISE_BUDGET_COMMAND: CommandSpec = {
  name: 'raise-budget',
  group: 'People in the loop',
  summary: 'raise the budget a paused run waits at, or stop it',
  description:
    "Raise the token, cost or iteration budget of a run paused at it (started with onBudget: 'ask'), or stop it there. The raise and who gave it go into the chain and the audit export. Sent straight to Temporal, unsigned: --roles are recorded as claimed, not verified, so a run that needs a raiser role (by default developer or operator) refuses it; raise through thoughtline serve (POST /v1/runs/{id}/budget) instead.",
  examples: [
    'thoughtline raise-budget agent-1 --tokens 50000 --as alice',
    'thoughtline raise-budget agent-1 --cost 0.50 --note "one more try"',
    'thoughtline raise-budget agent-1 --stop',
  ],
  args: [RUN_ID],
  options: {
    tokens: text('N', `tokens to add (up to ${MAX_RAISE_TOKENS})`),
    cost: text('USD', `dollars to add (up to ${MAX_RAISE_USD})`),
    iterations: text('N', `iterations to add (up to ${MAX_RAISE_ITERATIONS})`),
    stop: flag('end the run at its budget instead'),
    note: text('TEXT', 'a note kept with the decision'),
    ...PERSON_OPTIONS,
  },
  run: async (l) => {
    await raiseBudget(l.args[0]!, readRaise(l), person(l));
    return 0;
  },
};

interface RaiseFlags {
  tokens?: number;
  costUsd?: number;
  iterations?: number;
  stop?: boolean;
  note?: string;
}

function readRaise(l: CommandLine): RaiseFlags {
  const tokens = positiveInteger(l, 'tokens', MAX_RAISE_TOKENS);
  const iterations = positiveInteger(l, 'iterations', MAX_RAISE_ITERATIONS);
  const costText = l.text('cost');
  const costUsd = costText === undefined ? undefined : Number(costText);
  if (costUsd !== undefined && !(Number.isFinite(costUsd) && costUsd > 0 && costUsd <= MAX_RAISE_USD))
    throw new UsageError(`--cost takes a positive number of dollars up to ${MAX_RAISE_USD}, not "${costText}".`);
  const stop = l.flag('stop');
  const amounts = [tokens, costUsd, iterations].filter((a) => a !== undefined).length;
  if (stop && amounts > 0) throw new UsageError('--stop takes no --tokens, --cost or --iterations.');
  if (!stop && amounts === 0) throw new UsageError('Give --tokens, --cost or --iterations to raise, or --stop.');
  const note = l.text('note');
  return {
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(iterations !== undefined ? { iterations } : {}),
    ...(stop ? { stop: true } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}

/** `raise-budget <run> --tokens N | --cost USD | --iterations N | --stop`: shows the pause, then sends the raise. */
async function raiseBudget(
  workflowId: string,
  raise: RaiseFlags,
  flags: { as?: string; roles?: string },
): Promise<void> {
  const { agents, config } = await connect();
  try {
    const by = actingPerson(config, flags);
    const reply = await sendToOpenRun(agents, workflowId, 'raise', async () => {
      const pause = (await agents.status(workflowId)).budgetPause;
      if (pause) writeSafe(process.stdout, `Paused: ${pause.message}\n`);
      return agents.raiseBudget(workflowId, { ...raise, by });
    });
    const what = raise.stop ? 'stop' : raiseInWords(raise);
    writeSafe(process.stdout, `${what} by ${by.id}: ${reply}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
