export * from './evaluation-summary';
export { summariseEvaluation, meanOverRepeats } from './summarise-evaluation';
export { SEED_CRITERIA, meetsTarget, type SeedCriterion, type CriterionReading } from './seed-criteria';
export { wilsonInterval, Z_95, type Interval } from './proportion-interval';
export { meanInterval, tQuantile95 } from './mean-interval';
export { passAtK } from './pass-at-k';
export { percentile } from './percentile';
export { TIME_TARGETS, SIMPLE_TASK_TAGS, timeTargetSummaries } from './time-targets';
