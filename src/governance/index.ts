export * from './load-visibility-policy';
export * from './visibility-policy-error';
