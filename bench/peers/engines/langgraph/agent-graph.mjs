import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { lookupTool } from './lookup-tool.mjs';
import { ScriptedLoopModel } from './scripted-model.mjs';
import { stepMarks } from './step-marks.mjs';

/**
 * The ReAct agent as the LangGraph docs build it: an `agent` node calling the chat model, a
 * prebuilt ToolNode `tools`, and toolsCondition routing between them; compiled with the
 * checkpointer so every super-step is checkpointed. This is the graph createReactAgent builds,
 * written out because createReactAgent is deprecated in 1.x (moved to the `langchain` package).
 */
export function buildAgentGraph({ checkpointer, request }) {
  const marks = stepMarks(request.marksDir);
  const lookup = lookupTool({
    observationBytes: request.observationBytes ?? 1024,
    stepMarks: marks,
    slowAt: request.killAt,
    slowMs: request.slowToolMs,
  });
  const model = new ScriptedLoopModel({
    iterations: request.iterations,
    modelDelayMs: request.modelDelayMs ?? 0,
    stepMarks: marks,
  }).bindTools([lookup]);

  const callModel = async (state) => ({ messages: [await model.invoke(state.messages)] });

  return new StateGraph(MessagesAnnotation)
    .addNode('agent', callModel)
    .addNode('tools', new ToolNode([lookup]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer });
}
