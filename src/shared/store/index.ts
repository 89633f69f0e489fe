export * from './stored-run';
export * from './step-filter';
export * from './run-search';
export * from './usage-report';
export * from './chain-summary';
export * from './chain-timeline';
export * from './chain-source';
export * from './step-text';
