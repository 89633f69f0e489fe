// Worker and client side (Node) only.
import { agentsCore } from './agents-core.mjs';

/** Takes every trace and span the batch processor hands it, and sends them nowhere. */
class DiscardingExporter {
  async export() {}
}

let installed = false;

/**
 * Tracing stays on, as it is by default: spans are made in the workflow, carried to the worker by
 * the plugin's sink and batched there. Only the exporter changes: agents-core's default prints
 * every span to stdout (which must carry only the reply), and the OpenAI exporter would need the
 * network. It must be set before the plugin is constructed, which adds its own processor
 * (the package's README); once per process.
 */
export function installDiscardingTraceExporter() {
  if (installed) return;
  agentsCore.setTraceProcessors([new agentsCore.BatchTraceProcessor(new DiscardingExporter())]);
  installed = true;
}
