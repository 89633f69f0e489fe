import type { ToolSpec } from '../tools/tool-spec';
import type { ModelReply } from './model-wire';

/**
 * What the `callModel` activity returns: the reply, and the registered tools the call described
 * and offered first when it was asked to (ModelRequest.describeTools), as the worker holds them.
 * Recorded in history with the reply, so a replay and a fork see the tool set the run began with.
 */
export type ModelCallResult = ModelReply & { describedTools?: ToolSpec[] };
