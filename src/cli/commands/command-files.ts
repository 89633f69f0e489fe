/**
 * Where each command of COMMANDS (index.ts) is defined, by its name: `thoughtline <command>` loads
 * that file alone (main.ts), not all of them (0.4 s of CPU a spawn, issue 80). A command missing
 * here still works, main.ts then loads every command; test/cli/command-files.test.ts keeps this in
 * step with COMMANDS. Paths are relative to this folder, as `require` takes them from dist.
 */
export const COMMAND_FILES: Readonly<Record<string, readonly [file: string, exportName: string]>> = {
  demo: ['run-and-watch/demo', 'DEMO_COMMAND'],
  dev: ['operations/dev', 'DEV_COMMAND'],
  worker: ['operations/worker', 'WORKER_COMMAND'],
  versions: ['operations/versions', 'VERSIONS_COMMAND'],
  'set-current-version': ['operations/set-current-version', 'SET_CURRENT_VERSION_COMMAND'],
  serve: ['serve-and-protocols/serve', 'SERVE_COMMAND'],
  'mcp-server': ['serve-and-protocols/mcp-server', 'MCP_SERVER_COMMAND'],
  token: ['serve-and-protocols/token', 'TOKEN_COMMAND'],
  'signing-key': ['serve-and-protocols/signing-key', 'SIGNING_KEY_COMMAND'],
  tools: ['operations/tools', 'TOOLS_COMMAND'],
  run: ['run-and-watch/run', 'RUN_COMMAND'],
  schedule: ['run-and-watch/schedule', 'SCHEDULE_COMMAND'],
  eval: ['evaluation/eval', 'EVAL_COMMAND'],
  watch: ['run-and-watch/watch', 'WATCH_COMMAND'],
  chain: ['run-and-watch/chain', 'CHAIN_COMMAND'],
  status: ['run-and-watch/status', 'STATUS_COMMAND'],
  runs: ['run-and-watch/runs', 'RUNS_COMMAND'],
  tree: ['run-and-watch/tree', 'TREE_COMMAND'],
  diff: ['run-and-watch/diff', 'DIFF_COMMAND'],
  approve: ['people-in-the-loop/approve', 'APPROVE_COMMAND'],
  reject: ['people-in-the-loop/reject', 'REJECT_COMMAND'],
  steer: ['people-in-the-loop/steer', 'STEER_COMMAND'],
  answer: ['people-in-the-loop/answer', 'ANSWER_COMMAND'],
  'raise-budget': ['people-in-the-loop/raise-budget', 'RAISE_BUDGET_COMMAND'],
  export: ['store-and-audit/export', 'EXPORT_COMMAND'],
  fork: ['run-and-watch/fork', 'FORK_COMMAND'],
  verify: ['store-and-audit/verify', 'VERIFY_COMMAND'],
  import: ['store-and-audit/import', 'IMPORT_COMMAND'],
  cancel: ['run-and-watch/cancel', 'CANCEL_COMMAND'],
  score: ['evaluation/score', 'SCORE_COMMAND'],
  memory: ['store-and-audit/memory', 'MEMORY_COMMAND'],
  cache: ['store-and-audit/cache', 'CACHE_COMMAND'],
  store: ['store-and-audit/store', 'STORE_COMMAND'],
  search: ['store-and-audit/search', 'SEARCH_COMMAND'],
  usage: ['store-and-audit/usage', 'USAGE_COMMAND'],
  'codec-server': ['serve-and-protocols/codec-server', 'CODEC_SERVER_COMMAND'],
};
