#!/usr/bin/env bash
# The shell part of action.yml: builds the `dial run` command line from the action's inputs
# (INPUT_FILES, INPUT_ENV, INPUT_REPORTER, INPUT_SHARD, INPUT_ARGS), prints it, and runs it.
# Inputs arrive as environment variables, never pasted into the script, so no input can run
# shell code. Lists (files, reporters, args) are split on whitespace; no quoting, no globbing.
# DIAL_COMMAND names the dial to run (default: `dial` on PATH).
set -euo pipefail
set -f # no pathname expansion of the split words

command=("${DIAL_COMMAND:-dial}" run)
# shellcheck disable=SC2206 # splitting on whitespace is the point
files=(${INPUT_FILES:-.})
command+=("${files[@]}")
if [ -n "${INPUT_ENV:-}" ]; then command+=(-e "$INPUT_ENV"); fi
# shellcheck disable=SC2206
reporters=(${INPUT_REPORTER:-github})
for reporter in "${reporters[@]}"; do command+=(--reporter "$reporter"); done
if [ -n "${INPUT_SHARD:-}" ]; then command+=(--shard "$INPUT_SHARD"); fi
# shellcheck disable=SC2206
extra=(${INPUT_ARGS:-})
command+=("${extra[@]}")

printf '+'
printf ' %q' "${command[@]}"
printf '\n'
exec "${command[@]}"
