import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The machine and software a result was measured on. Load averages matter: the cores may be shared. */
export function machineInfo(projectRoot: string, temporalCli: string) {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    memoryGB: Math.round((os.totalmem() / 1e9) * 10) / 10,
    node: process.version,
    temporalCli,
    temporalSdk: sdkVersion(),
    gitCommit: gitCommit(projectRoot),
    loadAverage: os.loadavg(),
  };
}

function sdkVersion(): string {
  try {
    return (require('@temporalio/worker/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function gitCommit(cwd: string): string | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return undefined;
  }
}
