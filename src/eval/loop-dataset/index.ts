export { loopDatasetTools } from './loop-tools';
