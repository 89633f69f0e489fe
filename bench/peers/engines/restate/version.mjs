import { versionOf } from '../lib/engine-io.mjs';

export const ENGINE = 'restate';
export const version = () => `${versionOf('@restatedev/restate-sdk')}, ${versionOf('@restatedev/restate-server')}`;
