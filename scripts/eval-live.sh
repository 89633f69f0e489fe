#!/usr/bin/env bash
# `npm run eval:live -- --model M [eval options]`: the loop's dataset (eval/loop.jsonl) on a real
# model, printing seed 001's success criteria and seed 003's planning, reasoning and simple-task
# times (p50/p95) against their targets, each met or not. M is any model `run` takes: an
# Anthropic model with ANTHROPIC_API_KEY set, `provider/model` with that provider's key, or
# `local` (SmolLM2-135M in this process; no key, and one run at a time). No gate: a live model's
# figures are measured, not compared. The files go to .thoughtline/eval/live/<model>/ unless --out.
# A dev server this script had to start is stopped again.
set -euo pipefail
cd "$(dirname "$0")/.."
model=""
out_given=0
concurrency_given=0
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --model) model="${args[$((i + 1))]:-}" ;;
    --model=*) model="${args[$i]#--model=}" ;;
    --out | --out=*) out_given=1 ;;
    --concurrency | --concurrency=*) concurrency_given=1 ;;
  esac
done
if [ -z "$model" ]; then
  echo "usage: npm run eval:live -- --model M [thoughtline eval options]" >&2
  echo "  M: an Anthropic model (ANTHROPIC_API_KEY), provider/model (that provider's key), or local (SmolLM2-135M)" >&2
  exit 2
fi
extra=()
if [ "$out_given" = 0 ]; then extra+=(--out ".thoughtline/eval/live/${model//[^A-Za-z0-9._-]/-}"); fi
# The local model runs in the worker's own process: one run at a time, or they queue for its one context.
if [ "$model" = local ] && [ "$concurrency_given" = 0 ]; then extra+=(--concurrency 1); fi
source scripts/ensure-node.sh >/dev/null
source scripts/stop-own-dev-server.sh
node scripts/build-if-stale.cjs
node dist/cli/main.js eval eval/loop.jsonl --tools eval/loop-tools.cjs "${extra[@]}" "$@"
