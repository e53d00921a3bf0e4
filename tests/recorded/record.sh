#!/usr/bin/env bash
# Records the reports of tests/recorded/plan.txt with one build of `cardgame` (tests/recorded/README.md).
#
# Usage: tests/recorded/record.sh BINARY [WORD]
#
# For each study of plan.txt (only those whose NAME or SCRIPT contains WORD, when given): copies SCRIPT
# to scripts/ (the copy the test plays, so that later edits of the script leave the record valid) and
# writes NAME.json, the report of `BINARY sim scripts/FILE ARGUMENTS --reproducible --format json --jobs 1`.
# BINARY must be a build whose engine is trusted (the engine the record is an oracle for), not the build
# under test. A study whose game ends with an engine error is recorded too (its report says so).
set -euo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
word="${2:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/scripts"

grep -vE '^\s*(#|$)' "$here/plan.txt" | while read -r set name script args; do
  if [ -n "$word" ] && [[ "$name" != *"$word"* ]] && [[ "$script" != *"$word"* ]]; then
    continue
  fi
  copy="$here/scripts/$(basename "$script")"
  if [ -z "$word" ] || [ ! -e "$copy" ] || [[ "$script" == *"$word"* ]]; then
    cp "$root/$script" "$copy"
  fi
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  (cd "$root" && "$binary" sim "tests/recorded/scripts/$(basename "$script")" $args \
    --reproducible --format json --jobs 1 >"$here/$name.json") || echo "$name: exit $?" >&2
  end=$(date +%s.%N)
  printf '%-34s %-6s %6.1f s\n' "$name" "$set" "$(echo "$end - $start" | bc)" >&2
done
