import { commandHelp } from '../spec/command-help';
import { findCommand, type CommandSpec } from '../spec/command-line';
import { topLevelHelp } from '../spec/top-help';
import { CANCEL_COMMAND } from './run-and-watch/cancel';
import { CHAIN_COMMAND } from './run-and-watch/chain';
import { DEMO_COMMAND } from './run-and-watch/demo';
import { DIFF_COMMAND } from './run-and-watch/diff';
import { FORK_COMMAND } from './run-and-watch/fork';
import { RUN_COMMAND } from './run-and-watch/run';
import { SCHEDULE_COMMAND } from './run-and-watch/schedule';
import { RUNS_COMMAND } from './run-and-watch/runs';
import { STATUS_COMMAND } from './run-and-watch/status';
import { TREE_COMMAND } from './run-and-watch/tree';
import { WATCH_COMMAND } from './run-and-watch/watch';
import { ANSWER_COMMAND } from './people-in-the-loop/answer';
import { RAISE_BUDGET_COMMAND } from './people-in-the-loop/raise-budget';
import { APPROVE_COMMAND } from './people-in-the-loop/approve';
import { REJECT_COMMAND } from './people-in-the-loop/reject';
import { STEER_COMMAND } from './people-in-the-loop/steer';
import { CODEC_SERVER_COMMAND } from './serve-and-protocols/codec-server';
import { MCP_SERVER_COMMAND } from './serve-and-protocols/mcp-server';
import { SERVE_COMMAND } from './serve-and-protocols/serve';
import { SIGNING_KEY_COMMAND } from './serve-and-protocols/signing-key';
import { TOKEN_COMMAND } from './serve-and-protocols/token';
import { CACHE_COMMAND } from './store-and-audit/cache';
import { EXPORT_COMMAND } from './store-and-audit/export';
import { IMPORT_COMMAND } from './store-and-audit/import';
import { MEMORY_COMMAND } from './store-and-audit/memory';
import { SEARCH_COMMAND } from './store-and-audit/search';
import { STORE_COMMAND } from './store-and-audit/store';
import { USAGE_COMMAND } from './store-and-audit/usage';
import { VERIFY_COMMAND } from './store-and-audit/verify';
import { EVAL_COMMAND } from './evaluation/eval';
import { SCORE_COMMAND } from './evaluation/score';
import { completionCommand } from './operations/completion';
import { DEV_COMMAND } from './operations/dev';
import { SET_CURRENT_VERSION_COMMAND } from './operations/set-current-version';
import { TOOLS_COMMAND } from './operations/tools';
import { VERSIONS_COMMAND } from './operations/versions';
import { WORKER_COMMAND } from './operations/worker';

/**
 * Every command the CLI takes, each from its own file (a folder per group of the top-level help).
 * The order is the one error messages list commands in ("--json: versions, tools, run … do").
 */
export const COMMANDS: readonly CommandSpec[] = [
  DEMO_COMMAND,
  DEV_COMMAND,
  WORKER_COMMAND,
  VERSIONS_COMMAND,
  SET_CURRENT_VERSION_COMMAND,
  SERVE_COMMAND,
  MCP_SERVER_COMMAND,
  TOKEN_COMMAND,
  SIGNING_KEY_COMMAND,
  TOOLS_COMMAND,
  RUN_COMMAND,
  SCHEDULE_COMMAND,
  EVAL_COMMAND,
  WATCH_COMMAND,
  CHAIN_COMMAND,
  STATUS_COMMAND,
  RUNS_COMMAND,
  TREE_COMMAND,
  DIFF_COMMAND,
  APPROVE_COMMAND,
  REJECT_COMMAND,
  STEER_COMMAND,
  ANSWER_COMMAND,
  RAISE_BUDGET_COMMAND,
  EXPORT_COMMAND,
  FORK_COMMAND,
  VERIFY_COMMAND,
  IMPORT_COMMAND,
  CANCEL_COMMAND,
  SCORE_COMMAND,
  MEMORY_COMMAND,
  CACHE_COMMAND,
  STORE_COMMAND,
  SEARCH_COMMAND,
  USAGE_COMMAND,
  CODEC_SERVER_COMMAND,
  completionCommand(() => COMMANDS),
];

/** `thoughtline CMD --help` and `thoughtline help CMD`. */
export const helpOf = (name: string): string => commandHelp(findCommand(name, COMMANDS));

/** `thoughtline`, `thoughtline --help` and `thoughtline help`. */
export const topHelp = (): string => topLevelHelp(COMMANDS);
