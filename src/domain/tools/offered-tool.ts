import type { ModelTool } from '../model/model-wire';
import type { ToolSpec } from './tool-spec';

/**
 * The tool as a native tool call offers it; what it returns, if the spec says, ends its
 * description. The workflow offers its tools so, and a model call that describes the run's
 * registered tools itself (ModelRequest.describeTools) offers them the same way.
 */
export const toModelTool = (spec: ToolSpec): ModelTool => ({
  name: spec.name,
  description: spec.returns ? `${spec.description}\nReturns: ${spec.returns}` : spec.description,
  inputSchema: spec.inputSchema,
});
