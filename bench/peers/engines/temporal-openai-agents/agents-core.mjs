// Worker and client side (Node) only.
import { createRequire } from 'node:module';

/**
 * @openai/agents-core's CommonJS build, the one the plugin (CommonJS) requires: its classes and its
 * global trace provider are the plugin's. An ESM import would load the ESM build beside it, a
 * second copy with a trace provider of its own.
 */
export const agentsCore = createRequire(import.meta.url)('@openai/agents-core');
