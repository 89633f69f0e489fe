import { MAX_RAISE_ITERATIONS, MAX_RAISE_TOKENS, MAX_RAISE_USD, raiseInWords } from '../../../domain';
import { writeSafe } from '../../render/terminal-safe';
import { connect } from '../../setup/runtime';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { decider, flag, DECIDER_OPTIONS, positiveInteger, RUN_ID, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { actingPerson } from './decide-call';
import { decisionSending } from './decision-sending';
import { sendToOpenRun } from './require-open-run';

export const RAISE_BUDGET_COMMAND: CommandSpec = {
  name: 'raise-budget',
  group: 'People in the loop',
  summary: 'raise the budget a paused run waits at, or stop it',
  description:
    "Raise the token, cost or iteration budget of a run paused at it (started with onBudget: 'ask'), or stop it there. The raise and who gave it go into the chain and the audit export. A run needs a raiser role (by default developer or operator) verified by a signature: signed with the server's keyring (--signing-keys, or .thoughtline/signing-keys.json when readable), --as and --roles count; without one they are recorded as claimed and refused. Or raise through thoughtline serve (POST /v1/runs/{id}/budget).",
  examples: [
    'thoughtline raise-budget agent-1 --tokens 50000 --as alice --roles developer',
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
    ...DECIDER_OPTIONS,
  },
  run: async (l) => {
    await raiseBudget(l.args[0]!, readRaise(l), decider(l));
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
  flags: { as?: string; roles?: string; signingKeys?: string },
): Promise<void> {
  const { agents, config } = await connect();
  try {
    const by = actingPerson(config, flags);
    const sending = decisionSending(by, flags.signingKeys);
    const reply = await sendToOpenRun(agents, workflowId, 'raise', async () => {
      const pause = (await agents.status(workflowId)).budgetPause;
      if (pause) writeSafe(process.stdout, `Paused: ${pause.message}\n`);
      // The pause shown is the one answered (a signed raise names it, so it answers no later pause).
      return agents.raiseBudget(workflowId, { ...raise, by, ...(pause ? { pauseId: pause.pauseId } : {}) }, sending);
    });
    const what = raise.stop ? 'stop' : raiseInWords(raise);
    writeSafe(process.stdout, `${what} by ${by.id}: ${reply}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
