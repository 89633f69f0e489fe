export * from './eval-case';
export * from './evaluation-input';
export * from './case-result';
export * from './scoring-facts';
export { scoreCase } from './score-case';
