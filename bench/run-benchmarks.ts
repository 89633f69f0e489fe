import { findProjectRoot } from '../src/dev-server/project-paths';
import { measureActions } from './actions';
import { measureChainStore } from './chain-store';
import { measureCancellation } from './cancellation';
import { measureEvaluation } from './evaluation';
import { measureSeed003 } from './seed-003';
import { measureHistory } from './history';
import { measureIdleRuns } from './idle-runs';
import { measureLongRun } from './long-run';
import { FIGURE_IDS, loadBenchConfig, type BenchConfig, type FigureId } from './lib/bench-config';
import { createBenchContext, type BenchContext } from './lib/bench-context';
import { errorText, type FigureBody, type FigureResult } from './lib/figure';
import { machineInfo } from './lib/machine-info';
import { mapLimit } from './lib/map-limit';
import { measureRedaction } from './redaction';
import { renderTable } from './lib/render-table';
import { writeResults } from './lib/write-results';
import { measureScale } from './scale';
import { measureSeeing } from './seeing';
import { measurePush } from './serve-push';
import { measurePromptCaching } from './prompt-caching';
import { measureOverhead } from './thoughtline-overhead';
import { measureWorkers } from './workers';
import { measureTenantRates } from './tenant-rates';
import { measureMcpTaskWait } from './mcp-task-wait';
import { measureRunPage } from './run-page';
import { measureRunList } from './run-list';

const FIGURES: Record<
  FigureId,
  { title: string; measure: (ctx: BenchContext, config: BenchConfig) => Promise<FigureBody> }
> = {
  overhead: { title: '1. Overhead per ReAct iteration (instant model and tool)', measure: measureOverhead },
  actions: { title: '8. Billable actions, events and history bytes per run', measure: measureActions },
  seeing: { title: '3. Seeing: chain queries and watchers', measure: measureSeeing },
  push: { title: '3b. Push: SSE watchers of `serve`, worker in another process', measure: measurePush },
  history: { title: '4. History size and replay', measure: measureHistory },
  longrun: { title: '6. A long run: no ceiling on its length', measure: measureLongRun },
  idle: { title: '7. Idle runs: many waiting for people on one worker', measure: measureIdleRuns },
  redaction: { title: '5. Redaction of 1 MiB of hostile text', measure: measureRedaction },
  scale: { title: '2. Scale: concurrent runs on one worker', measure: measureScale },
  workers: { title: '2b. Scale over worker processes: one and two', measure: measureWorkers },
  cache: { title: '9. Prompt caching of a 20-iteration run (Anthropic request shape)', measure: measurePromptCaching },
  evaluation: { title: '10. An evaluation of 1,000 cases: history, case results, actions', measure: measureEvaluation },
  seed003: { title: "11. Seed 003's options: Temporal actions of one run with each", measure: measureSeed003 },
  store: { title: '12. The chain store: page reads of a 10,000-step chain and search', measure: measureChainStore },
  cancel: { title: '13. Cancelling a run: from the request to the returned result', measure: measureCancellation },
  tenant: { title: '14. Tenant limits: Temporal actions of a 21-call run with each', measure: measureTenantRates },
  mcptask: { title: '15. A run parked an hour on an MCP task (time-skipped)', measure: measureMcpTaskWait },
  runpage: { title: "16. Reading a run: a long run's page in Chromium", measure: measureRunPage },
  runlist: {
    title: '17. A run list of many runs from the chain store, sorted by each column',
    measure: measureRunList,
  },
};

/**
 * Figures measured at once at the smoke sizes (BENCH_SMOKE=1); the real sizes measure one at a time.
 * Here the smoke took 56 s two at a time, 48 s three, 43–46 s four, with all 19 figures each time.
 */
const SMOKE_LANES = 4;

/**
 * `npm run bench`: every figure against one fresh dev server (or the server BENCH_TEMPORAL_ADDRESS
 * names), printed and written to JSON.
 */
async function main(): Promise<number> {
  const projectRoot = findProjectRoot();
  const config = loadBenchConfig(process.env, projectRoot);
  const log = (line: string): void => console.error(`[bench] ${line}`);
  log(
    `${config.smoke ? 'smoke sizes (BENCH_SMOKE=1)' : config.quick ? 'quick sizes (BENCH_QUICK=1)' : 'full sizes'}; figures: ${config.figures.join(', ')}`,
  );
  const date = new Date().toISOString();
  const ctx = await createBenchContext(log, config.server);
  // Interrupted: stop the server this run started (and, through 'exit', any worker process) and quit.
  const interrupt = (signal: NodeJS.Signals): void => {
    log(`${signal}: stopping`);
    void ctx.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  const machine = machineInfo(projectRoot, ctx.server.cliVersion.split('\n')[0] ?? '');
  const measureFigure = async (id: FigureId): Promise<FigureResult> => {
    const { title, measure } = FIGURES[id];
    const started = Date.now();
    try {
      const { measurements, details, errors = [] } = await measure(ctx, config);
      return { id, title, measurements, details, errors, wallMs: Date.now() - started };
    } catch (err) {
      log(`${id} failed: ${errorText(err)}`);
      return { id, title, measurements: [], details: {}, errors: [errorText(err)], wallMs: Date.now() - started };
    }
  };
  const ids = FIGURE_IDS.filter((f) => config.figures.includes(f));
  let figures: FigureResult[] = [];
  try {
    // In a fixed order, one at a time: no figure's load may colour another's numbers. The smoke
    // sizes (CI's check that every figure still runs, its numbers meaning little) run four at a
    // time: most of a smoke figure is waiting on servers, browsers and timers, and waits overlap.
    figures = await mapLimit(ids.length, config.smoke ? SMOKE_LANES : 1, (i) => measureFigure(ids[i]!));
  } finally {
    await ctx.close();
  }
  const file = writeResults(config.out, {
    date,
    quick: config.quick,
    machine: { ...machine, loadAverageAtEnd: machineInfo(projectRoot, '').loadAverage },
    config,
    figures,
  });
  // Run in a fixed order (scale last), printed in the order (titles start with the number).
  console.log(renderTable([...figures].sort((a, b) => a.title.localeCompare(b.title))));
  console.log(
    `\nmachine: ${machine.cpuCount} x ${machine.cpuModel}, ${machine.memoryGB} GB, node ${machine.node}, ${machine.temporalCli}; load ${machine.loadAverage.map((l) => l.toFixed(2)).join(' ')} at start`,
  );
  console.log(`written to ${file}${config.quick ? ' (quick sizes: not the official figures)' : ''}`);
  // A figure that could not be measured fails the command; a missed target does not.
  return figures.some((f) => f.measurements.length === 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
