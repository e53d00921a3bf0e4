#!/usr/bin/env bash
# Benchmarks: the table of figures of README.md and docs/performance.md, measured again on this machine.
#
# Usage: benches/figures.sh            (ONLY=WORD: only the scripts whose path contains WORD)
#
# Builds `cardgame` in release, then for every script in games/ and examples/, with its smallest player
# count (2 for a script that also plays solo):
# - speed: `cardgame sim FILE --jobs 1 --agents random` for about SECONDS_PER_RUN seconds, ROUNDS times,
#   the scripts interleaved round by round so that every script sees the same machine load; prints the
#   median games per second and decisions per second of one core, and the lowest and highest round;
# - strength: `cardgame sim FILE --games GREEDY_GAMES --agents greedy,random` (seats rotated) and, for
#   each strategy the script writes, `--games STRATEGY_GAMES --agents strategy:NAME,random`: the bot's
#   share of the games, with its 95% interval (a game won by both counts for both).
# Environment: SECONDS_PER_RUN (2), ROUNDS (3), GREEDY_GAMES (40, 0 skips), STRATEGY_GAMES (200, 0 skips);
# CARDGAME=PATH measures that binary instead of building one.
set -euo pipefail

seconds_per_run="${SECONDS_PER_RUN:-2}"
rounds="${ROUNDS:-3}"
greedy_games="${GREEDY_GAMES:-40}"
strategy_games="${STRATEGY_GAMES:-200}"
only="${ONLY:-}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ -n "${CARDGAME:-}" ]; then
  bin="$CARDGAME"
else
  cargo build --release --quiet
  bin="$root/target/release/cardgame"
fi

field() { grep -oE "\"$1\": ?[0-9.eE+-]+" | head -1 | sed -E 's/.*: ?//'; }
# The smallest player count of a script (its `players N` or `players N..M`) that has opponents: 2
# for a script that also plays solo.
players_of() {
  local n
  n="$(sed -nE 's/^(.*[{[:space:]])?players[[:space:]]+([0-9]+).*/\2/p' "$1" | head -1)"
  if [ "$n" = 1 ] && grep -qE '(^|[{[:space:]])players[[:space:]]+1\.\.' "$1"; then n=2; fi
  echo "$n"
}
# The share of the games won by AGENT in the text report of `sim` ("  greedy   16.0% [11.6-21.7]").
share_of() {
  awk -v a="$1" '/^wins by agent:/ { on = 1; next } on && $1 == a { print $2 " " $3; exit } on && !/^  / { exit }'
}

scripts=()
for f in games/*.cardgame examples/*.cardgame; do
  if [ -z "$only" ] || [[ "$f" == *"$only"* ]]; then scripts+=("$f"); fi
done

echo "cardgame figures, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo

# Games per run, so that one run lasts about SECONDS_PER_RUN.
declare -A games
for f in "${scripts[@]}"; do
  p="$(players_of "$f")"
  gps="$("$bin" sim "$f" --players "$p" --games 20 --jobs 1 --agents random --format json | field games_per_second)"
  games[$f]="$(awk -v g="$gps" -v s="$seconds_per_run" 'BEGIN { n = int(g * s); print (n < 20 ? 20 : n) }')"
done

declare -A gps_runs dps_runs
for ((r = 1; r <= rounds; r++)); do
  for f in "${scripts[@]}"; do
    p="$(players_of "$f")"
    out="$("$bin" sim "$f" --players "$p" --games "${games[$f]}" --jobs 1 --agents random --format json)"
    gps="$(field games_per_second <<<"$out")"
    secs="$(field seconds <<<"$out")"
    dmean="$(grep -oE '"decisions": ?\{"mean": ?[0-9.eE+-]+' <<<"$out" | sed -E 's/.*: ?//')"
    dps="$(awk -v d="$dmean" -v n="${games[$f]}" -v s="$secs" 'BEGIN { printf "%.0f", d * n / s }')"
    gps_runs[$f]+="$gps "
    dps_runs[$f]+="$dps "
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
lowest() { tr ' ' '\n' | grep -v '^$' | sort -g | head -1; }
highest() { tr ' ' '\n' | grep -v '^$' | sort -g | tail -1; }

echo "| script | players | games/s, one core (lowest-highest of $rounds) | decisions/s | greedy vs random | strategies vs random |"
echo "| --- | --- | --- | --- | --- | --- |"
for f in "${scripts[@]}"; do
  p="$(players_of "$f")"
  g="$(median <<<"${gps_runs[$f]}")"
  speed="$(printf "%'.0f (%'.0f-%'.0f)" "$g" "$(lowest <<<"${gps_runs[$f]}")" "$(highest <<<"${gps_runs[$f]}")")"
  dps="$(printf "%'.0f" "$(median <<<"${dps_runs[$f]}")")"
  greedy="not measured"
  if [ "$greedy_games" -gt 0 ]; then
    greedy="$("$bin" sim "$f" --players "$p" --games "$greedy_games" --agents greedy,random | share_of greedy) of $greedy_games"
  fi
  strategies=""
  if [ "$strategy_games" -gt 0 ]; then
    for s in $("$bin" strategies "$f" --format json | sed -nE 's/.*"agent": "strategy:([^"]+)".*/\1/p'); do
      share="$("$bin" sim "$f" --players "$p" --games "$strategy_games" --agents "strategy:$s,random" | share_of "strategy:$s")"
      strategies+="${strategies:+; }$s $share"
    done
  fi
  echo "| $(basename "$f" .cardgame) | $p | $speed | $dps | $greedy | ${strategies:-none written} |"
done
