import * as restate from '@restatedev/restate-sdk';
import { agentService } from './agent-service.mjs';

/**
 * Serves the agent service as a Restate endpoint (HTTP/2) on `port` (0: any free one), the way
 * the SDK docs show: restate.endpoint().bind(service).listen(port). Resolves with the bound port.
 */
export function serveEndpoint({ serviceName, port = 0, marksDir, options }) {
  return (
    restate
      .endpoint()
      // The SDK logs through console.info, which is stdout: the reply line's channel.
      .setLogger((meta, message, ...rest) =>
        process.stderr.write(`[restate-sdk ${meta.level}] ${[message, ...rest].join(' ')}\n`),
      )
      .bind(agentService(serviceName, { marksDir, options }))
      .listen(port)
  );
}
