import { isMissingPackage } from '../../../packaging/optional-peers';

type NodeLlamaCpp = typeof import('node-llama-cpp', { with: { 'resolution-mode': 'import' } });

/**
 * The node-llama-cpp version thoughtline runs the local model with: its optional peer dependency
 * (package.json `peerDependencies`), left out of the default install because its native builds
 * (CUDA, Vulkan, CPU) weigh several hundred MB.
 */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** The one command that makes the local model available in a project that installed thoughtline. */
export const LOCAL_MODEL_INSTALL_COMMAND = `npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

/** The local model was asked for and node-llama-cpp is not installed where thoughtline can load it. */
export class LocalModelRuntimeMissingError extends Error {
  override readonly name = 'LocalModelRuntimeMissingError';
  readonly installCommand = LOCAL_MODEL_INSTALL_COMMAND;
  constructor(cause: unknown) {
    super(
      `the local model needs node-llama-cpp, which is not installed (it is optional: its native builds are large). ` +
        `Install it in your project, next to thoughtline: ${LOCAL_MODEL_INSTALL_COMMAND}`,
      { cause },
    );
  }
}

/**
 * node-llama-cpp, loaded on first use (a process that never runs the local model never loads it
 * or its native binary). Rejects with `LocalModelRuntimeMissingError` when it is not installed.
 */
export async function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  try {
    return await import('node-llama-cpp');
  } catch (error) {
    if (isMissingPackage(error, 'node-llama-cpp')) throw new LocalModelRuntimeMissingError(error);
    throw error;
  }
}
