import { parseArgs } from 'node:util';
import { clusterStatus } from './lifecycle/cluster-status';
import { startCluster } from './lifecycle/start-cluster';
import { stopCluster } from './lifecycle/stop-cluster';

const USAGE = `usage: npm run cluster -- <command> [options]

  start   [--name N] [--namespace NS] [--shards N] [--fresh] [--mtls]
          build the pinned Temporal server once, start PostgreSQL and the four server roles,
          register the namespace and Thoughtline's search attributes; prints the TEMPORAL_*
          variables a client sets (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, and with --mtls the
          TEMPORAL_TLS_* files: the cluster's own CA and a client certificate it signed)
  stop    [--name N] [--delete]
          end what start started; --delete also removes the cluster's databases and logs
  status  [--name N]
          each process and whether it runs, and the TEMPORAL_* variables

Clusters live in .thoughtline/cluster/<name> (default name: default).`;

class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' },
  namespace: { type: 'string' },
  shards: { type: 'string' },
  fresh: { type: 'boolean' },
  mtls: { type: 'boolean' },
  delete: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Which options each command takes; any other is a usage error. */
const ALLOWED: Record<string, ReadonlyArray<keyof typeof OPTIONS>> = {
  start: ['name', 'namespace', 'shards', 'fresh', 'mtls'],
  stop: ['name', 'delete'],
  status: ['name'],
};

/** `KEY=value` lines, the form `set -a; eval "$(…)"` and `sed -n 's/^KEY=//p'` read. */
const printVariables = (variables: Readonly<Record<string, string>>): void =>
  console.log(
    Object.entries(variables)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );

/** Runs one command; the client's variables go to stdout (`KEY=value` lines), progress to stderr. */
async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return;
  }
  const allowed = ALLOWED[command];
  if (!allowed) throw new UsageError(`unknown command '${command}'`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const wrong = Object.keys(values).find((k) => k !== 'help' && !allowed.includes(k as keyof typeof OPTIONS));
  if (wrong) throw new UsageError(`${command} takes no --${wrong}`);
  const log = (line: string): void => console.error(`[cluster] ${line}`);

  if (command === 'start') {
    const shards = values.shards === undefined ? undefined : Number(values.shards);
    if (shards !== undefined && !(Number.isInteger(shards) && shards > 0))
      throw new UsageError(`--shards takes a whole number above 0, not '${values.shards}'`);
    const started = Date.now();
    const cluster = await startCluster({
      log,
      ...(values.name ? { name: values.name } : {}),
      ...(values.namespace ? { namespace: values.namespace } : {}),
      ...(shards !== undefined ? { numHistoryShards: shards } : {}),
      ...(values.fresh ? { fresh: true } : {}),
      ...(values.mtls ? { mtls: true } : {}),
    });
    if (cluster.started) log(`started in ${Math.round((Date.now() - started) / 1000)} s`);
    printVariables(cluster.variables);
  } else if (command === 'stop') {
    const stopped = await stopCluster({
      log,
      ...(values.name ? { name: values.name } : {}),
      deleteData: values.delete ?? false,
    });
    if (!stopped) log(`no cluster named ${values.name ?? 'default'}`);
  } else {
    const status = await clusterStatus(values.name ? { name: values.name } : {});
    console.log(`cluster ${status.name}: ${status.condition}`);
    if (status.variables) printVariables(status.variables);
    for (const line of status.processes) console.log(`  ${line}`);
    if (status.condition === 'partial') process.exitCode = 1;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
