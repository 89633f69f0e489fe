export * from './visibility-policy';
export * from './viewer-preferences';
export * from './view-lens';
export * from './progress-summary';
