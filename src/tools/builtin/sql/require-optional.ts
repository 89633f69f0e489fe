import { ToolError } from '../../tool-error';

/**
 * Loads an optional dependency on first use. Missing, it is a final ToolError that tells the
 * user what to install, so the worker starts without it and only the tool that needs it fails.
 */
export function requireOptional<Module>(name: string, neededBy: string): Module {
  try {
    return require(name) as Module;
  } catch (error) {
    throw new ToolError(`${neededBy} needs the package ${name}: install it next to thoughtline (npm install ${name}).`, { retryable: false, cause: error });
  }
}
