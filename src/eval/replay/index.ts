export { createEvalReplay, type EvalReplay, type EvalReplayOptions } from './create-eval-replay';
export { createReplayModel, REPLAY_PROVIDER } from './replay-model';
export { recordedExecutionsOf, replayRecordedTools } from './replay-tools';
