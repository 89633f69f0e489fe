// The tools of eval/loop.jsonl, for `thoughtline eval eval/loop.jsonl --tools eval/loop-tools.cjs`
// (built by `npm run build`; the sources are in src/eval/loop-dataset/).
module.exports = { tools: require('../dist/eval/loop-dataset').loopDatasetTools };
