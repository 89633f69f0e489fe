import { createChainStoreProjection } from '../../../server/chain-store/chain-store-projection';
import { checkChainStore } from '../../../server/chain-store/check-chain-store';
import { rebuildChainStore } from '../../../server/chain-store/rebuild-chain-store';
import { createEventBus } from '../../../events/create-event-bus';
import { createMemoryBus } from '../../../events/memory-bus';
import type { ChainStore } from '../../../store/chain-store';
import { openChainStore } from '../../../store/open-chain-store';
import { parseStoreSetting, type StoreSettings } from '../../../store/store-settings';
import { loadConfig } from '../../../config';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { connect, log } from '../../setup/runtime';
import { UsageError } from '../../spec/usage-error';
import { untilSignal } from '../../setup/until-signal';
import { counted } from '../../../domain/text/counted';

/*
 * `store`: the chain store's projection without the HTTP API (until Ctrl-C), `store rebuild`
 * (re-derive it from Temporal) and `store check` (compare it with Temporal; exit 1 on any
 * difference). Temporal stays the source of truth; the store can be rebuilt at any time.
 */

type StoreAction = { action: 'run' } | { action: 'rebuild' } | { action: 'check'; run?: string; json: boolean };

/** `--store VALUE` over THOUGHTLINE_STORE (unset: the default SQLite file); `off` means none. */
export function storeSettingsOf(flag: string | undefined): StoreSettings {
  return flag !== undefined ? parseStoreSetting(flag) : loadConfig().store;
}

/** Opens the store the settings name, or says why there is none. */
export async function openStoreFor(settings: StoreSettings): Promise<ChainStore> {
  const store = await openChainStore(settings);
  if (!store)
    throw new UsageError(
      'The chain store is off (THOUGHTLINE_STORE=off): give --store VALUE or set THOUGHTLINE_STORE.',
    );
  return store;
}

function storeAction(line: CommandLine): StoreAction {
  const action = line.args[0] ?? 'run';
  if (action !== 'run' && action !== 'rebuild' && action !== 'check')
    throw new UsageError(`store takes rebuild or check, or nothing (run the projection); not "${action}".`);
  const run = line.text('run');
  if (action !== 'check' && (run !== undefined || line.flag('json')))
    throw new UsageError('--run and --json go with store check.');
  if (run !== undefined && (run.length === 0 || run.length > 1_000))
    throw new UsageError('--run takes a run id of 1–1,000 characters.');
  return action === 'check' ? { action, json: line.flag('json'), ...(run ? { run } : {}) } : { action };
}

async function runStoreCommand(action: StoreAction, flag: string | undefined): Promise<number> {
  const store = await openStoreFor(storeSettingsOf(flag));
  try {
    const { agents, config } = await connect();
    try {
      if (action.action === 'check') {
        const check = await checkChainStore(store, agents, action.run ? [action.run] : undefined);
        if (action.json) writeForStdout(`${JSON.stringify(check, null, 2)}\n`);
        else
          writeSafe(
            process.stdout,
            [
              ...check.differences.map((d) => `${d.runId}: ${d.what}\n`),
              `${counted(check.runs, 'run')} compared with Temporal; ${check.differences.length === 0 ? 'no difference' : counted(check.differences.length, 'difference')}.\n`,
            ].join(''),
          );
        return check.differences.length === 0 ? 0 : 1;
      }
      if (action.action === 'rebuild') {
        const rebuilt = await rebuildChainStore(store, agents);
        writeSafe(
          process.stdout,
          `Rebuilt ${counted(rebuilt.runs, 'run')}, ${counted(rebuilt.steps, 'step')} from Temporal into ${store.where}; ${rebuilt.gone} only in the store (kept); ${counted(rebuilt.queries, 'chain query', { many: 'chain queries' })} sent.\n`,
        );
        return 0;
      }
      // Without a Redis bus this process hears no run events: sweeps alone keep the store (within a minute).
      const events = config.events && /^rediss?:\/\//.test(config.events) ? config.events : undefined;
      const bus = events ? createEventBus(events, { log }) : createMemoryBus();
      const projection = createChainStoreProjection({
        store,
        agents,
        bus,
        log,
        retentionDays: config.storeRetentionDays,
      });
      const signalled = untilSignal();
      await projection.start();
      log(
        `keeping the chain store ${store.where} from ${events ? `run events on ${events} and ` : ''}Temporal (a sweep a minute). Ctrl-C stops it.`,
      );
      await signalled;
      await projection.close();
      await bus.close();
      return 0;
    } finally {
      await agents.client.connection.close();
    }
  } finally {
    await store.close();
  }
}

export const STORE_COMMAND: CommandSpec = {
  name: 'store',
  group: 'Store and audit',
  summary: 'keep, rebuild or check the chain store',
  description:
    "Keep the chain store from run events and Temporal until Ctrl-C (what serve does, without the HTTP API); rebuild: re-derive it from every run Temporal has; check: compare it with Temporal's chains, exit 1 on any difference.",
  usage: ['store [--store VALUE]', 'store rebuild [--store VALUE]', 'store check [--run ID] [--json] [--store VALUE]'],
  examples: ['thoughtline store rebuild', 'thoughtline store check --run agent-1 --json'],
  args: [{ name: '[rebuild|check]' }],
  options: {
    store: text('VALUE', 'the chain store: sqlite:PATH or a postgres:// URL', {
      env: 'THOUGHTLINE_STORE',
      default: '.thoughtline/store.sqlite',
    }),
    run: text('ID', 'check: this run only'),
    json: flag('check: the differences as JSON'),
  },
  run: (line) => runStoreCommand(storeAction(line), line.text('store')),
};
