import { randomUUID } from 'node:crypto';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { registerDeployment, removeDeployment } from './admin.mjs';
import { startChildEndpoint } from './child-endpoint.mjs';
import { freePort } from './free-port.mjs';
import { uniqueServiceName, withServer } from './infra.mjs';
import { invokeRun } from './ingress.mjs';
import { checkAnswer, runInput } from './run-input.mjs';
import { waitForMark } from './wait-for-mark.mjs';
import { ENGINE, version } from './version.mjs';

/**
 * The endpoint runs in a child process; while tool step `killAt` sleeps, the child is SIGKILLed
 * and a replacement starts at once on the same port, as a restarted service comes back at its
 * registered address. restate-server notices the broken stream, retries the invocation with its
 * default retry policy, and the new endpoint replays the journal up to the unfinished step.
 */
export function recover(request) {
  const { marksDir, killAt } = request;
  if (!marksDir) throw new Error('recover needs marksDir');
  return withServer(request, async (server) => {
    const serviceName = uniqueServiceName();
    const port = await freePort();
    const endpoints = [startChildEndpoint({ serviceName, port, marksDir })];
    let deploymentId;
    try {
      await endpoints[0].ready;
      deploymentId = await registerDeployment(server.admin, `http://127.0.0.1:${port}`);
      const id = `restate-recover-${randomUUID()}`;
      const input = runInput(request, id, { killAt, slowToolMs: request.slowToolMs ?? 0 });
      const result = invokeRun(server.ingress, serviceName, input);
      result.catch(() => {}); // awaited below; a failure before then must not go unhandled

      await waitForMark(marksDir, id, { kind: 'tool', index: killAt, phase: 'start' });
      endpoints[0].child.kill('SIGKILL');
      const killedAt = now();
      const replacementStartedAt = now();
      endpoints.push(startChildEndpoint({ serviceName, port, marksDir }));
      await endpoints[1].ready;
      log(
        `restate recover: killed pid ${endpoints[0].child.pid}; replacement pid ${endpoints[1].child.pid} listening after ${(now() - replacementStartedAt).toFixed(1)} ms`,
      );

      const { output } = await result;
      checkAnswer(id, output, request.iterations);
      return { engine: ENGINE, version: version(), id, answer: output.answer, killedAt, replacementStartedAt };
    } finally {
      if (deploymentId) await removeDeployment(server.admin, deploymentId);
      for (const e of endpoints) await e.stop();
    }
  });
}
