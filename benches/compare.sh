#!/usr/bin/env bash
# Benchmarks: speed of this build against an older commit's build, on the same machine at the same moment.
#
# Usage: benches/compare.sh [COMMIT]            (COMMIT defaults to a9083d8)
#
# Builds `cardgame` in release here and at COMMIT (in a separate git worktree, target/compare/<hash>,
# reused by later runs), then for each script in games/ and examples/ runs
#   cardgame sim FILE --games N --players P --jobs 1 --agents random --format json
# with both binaries, alternating old and new for several rounds so that both see the same machine load,
# and prints games per second of each build (the median over the rounds; `games_per_second` of the JSON
# report), their ratio new/old, and the ratio of user CPU seconds old/new (steadier on a loaded
# machine). Both builds play the same script file, the current one; a script the old build does not
# accept is played from COMMIT's own copy instead, marked `(old script)`.
# Then: seconds per game of `mcts:200` on games/heart-of-crown.cardgame, 2 players, both builds; and the
# peak resident memory of the new build's `sim` of examples/market-race.cardgame over 10,000 and 100,000
# games (memory must not grow with the number of games).
#
# Environment: SECONDS_PER_RUN (2) sets N so that one old run lasts about that long; ROUNDS (3) the
# old/new alternations; MCTS_GAMES (4) and MCTS_ROUNDS (1) the mcts line (MCTS_GAMES=0 skips it);
# MEMORY=0 skips the memory line; ONLY=WORD plays only the scripts whose path contains WORD;
# SAME_SCRIPT=0 skips, for a script the old build plays from its own copy, the third run of each round
# in which the new build plays that copy too (the `same script` ratio: both builds on one text).
set -euo pipefail

commit="${1:-a9083d8}"
seconds_per_run="${SECONDS_PER_RUN:-2}"
rounds="${ROUNDS:-3}"
mcts_games="${MCTS_GAMES:-4}"
mcts_rounds="${MCTS_ROUNDS:-1}"
memory="${MEMORY:-1}"
only="${ONLY:-}"
same_script="${SAME_SCRIPT:-1}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
hash="$(git rev-parse --short=7 "${commit}^{commit}")"
old_tree="$root/target/compare/$hash"

if [ ! -e "$old_tree/.git" ]; then
  mkdir -p "$root/target/compare"
  git worktree add --detach "$old_tree" "$hash" >/dev/null
fi
echo "building the new build (here) and the old one ($hash, in target/compare/$hash)..." >&2
cargo build --release --quiet --bin cardgame
(cd "$old_tree" && cargo build --release --quiet --bin cardgame)
new_bin="$root/target/release/cardgame"
old_bin="$old_tree/target/release/cardgame"

# A JSON number field of a one-object report.
field() { grep -oE "\"$1\": ?[0-9.eE+-]+" | head -1 | sed -E 's/.*: ?//'; }
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# Players for a script: its smallest count, at least 2.
players_of() {
  # `players N` on its own line or inside `game "..." { players N }`; 2 when none is found.
  sed -nE 's/^(.*[{[:space:]])?players[[:space:]]+([0-9]+).*/\2/p' "$1" | head -1 |
    awk '{print ($1 < 2) ? 2 : $1} END {if (NR == 0) print 2}'
}
# One sim with one binary: prints "GAMES_PER_SECOND USER_CPU_SECONDS" (wall-clock games per second from
# the JSON report, and the user CPU time of the process, which the load of a shared machine disturbs
# much less than the wall clock).
timed_sim() {
  local bin="$1" file="$2" out cpu
  shift 2
  out="$(mktemp)"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U' -o "$out.cpu" "$bin" sim "$file" --jobs 1 --format json "$@" >"$out" 2>/dev/null || true
    cpu="$(tail -1 "$out.cpu")"
  else
    cpu=0
    "$bin" sim "$file" --jobs 1 --format json "$@" >"$out" 2>/dev/null || true
  fi
  echo "$(field games_per_second <"$out") $cpu"
  rm -f "$out" "$out.cpu"
}
# sim with one binary; prints the JSON report.
sim() {
  local bin="$1" file="$2"
  shift 2
  # Exit 1 means that a game ended with an engine error; the report is printed all the same.
  "$bin" sim "$file" --jobs 1 --format json "$@" || true
}

echo "new: $(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD || echo ' (with uncommitted changes)'); old: $hash"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "random playouts, one core, median of $rounds rounds (old and new alternated), about ${seconds_per_run} s per old run"
echo "ratio: new/old games per second (wall clock); cpu: old/new user CPU seconds (median), steadier under load"
printf '%-34s %7s %8s %12s %12s %8s\n' script players games "old games/s" "new games/s" ratio
for file in games/*.cardgame examples/*.cardgame; do
  case "$file" in *"$only"*) ;; *) continue ;; esac
  players="$(players_of "$file")"
  old_file="$file"
  note=""
  if ! "$old_bin" check "$file" >/dev/null 2>&1; then
    old_file="$old_tree/$file"
    note=" (old script)"
    if [ ! -e "$old_file" ]; then
      printf '%-34s %7s %s\n' "$file" "$players" "not in $hash"
      continue
    fi
  fi
  # Calibrate the number of games on the old (slower) build.
  gps="$(sim "$old_bin" "$old_file" --games 10 --players "$players" --agents random | field games_per_second)"
  games="$(awk -v g="$gps" -v s="$seconds_per_run" 'BEGIN {n = int(g * s); if (n < 10) n = 10; print n}')"
  olds=()
  news=()
  cpus=()
  sames=()
  for ((r = 0; r < rounds; r++)); do
    args=(--games "$games" --players "$players" --agents random)
    if ((r % 2 == 0)); then
      read -r og oc <<<"$(timed_sim "$old_bin" "$old_file" "${args[@]}")"
      read -r ng nc <<<"$(timed_sim "$new_bin" "$file" "${args[@]}")"
    else
      read -r ng nc <<<"$(timed_sim "$new_bin" "$file" "${args[@]}")"
      read -r og oc <<<"$(timed_sim "$old_bin" "$old_file" "${args[@]}")"
    fi
    olds+=("$og")
    news+=("$ng")
    cpus+=("$(awk -v o="$oc" -v n="$nc" 'BEGIN {if (n > 0) print o / n; else print 0}')")
    if [ -n "$note" ] && [ "$same_script" != 0 ]; then
      read -r sg _ <<<"$(timed_sim "$new_bin" "$old_file" "${args[@]}")"
      sames+=("$(awk -v o="$og" -v n="$sg" 'BEGIN {if (o > 0) print n / o; else print 0}')")
    fi
  done
  old_median="$(printf '%s\n' "${olds[@]}" | median)"
  new_median="$(printf '%s\n' "${news[@]}" | median)"
  ratios="$(for ((r = 0; r < rounds; r++)); do awk -v o="${olds[$r]}" -v n="${news[$r]}" 'BEGIN {print n / o}'; done)"
  ratio="$(printf '%s\n' "$ratios" | median)"
  lo="$(printf '%s\n' "$ratios" | sort -g | head -1)"
  hi="$(printf '%s\n' "$ratios" | sort -g | tail -1)"
  cpu_ratio="$(printf '%s\n' "${cpus[@]}" | median)"
  printf '%-34s %7s %8s %12.1f %12.1f %7.2fx  (min %.2fx, max %.2fx)  cpu %.2fx%s\n' \
    "$file" "$players" "$games" "$old_median" "$new_median" "$ratio" "$lo" "$hi" "$cpu_ratio" "$note"
  if ((${#sames[@]} > 0)); then
    printf '%-34s %7s %8s %25s %7.2fx  (min %.2fx, max %.2fx)  same script: the new build on %s'"'"'s copy\n' \
      "" "" "" "" "$(printf '%s\n' "${sames[@]}" | median)" \
      "$(printf '%s\n' "${sames[@]}" | sort -g | head -1)" "$(printf '%s\n' "${sames[@]}" | sort -g | tail -1)" "$hash"
  fi
done

echo
if [ "$mcts_games" = 0 ]; then
  mcts_rounds=0
fi
hoc="games/heart-of-crown.cardgame"
# As above: the old build plays its own copy of the script when it does not accept the current one.
old_hoc="$hoc"
if ! "$old_bin" check "$hoc" >/dev/null 2>&1; then
  old_hoc="$old_tree/$hoc"
fi
olds=()
news=()
for ((r = 0; r < mcts_rounds; r++)); do
  for side in old new; do
    if [ "$side" = old ]; then bin="$old_bin"; file="$old_hoc"; else bin="$new_bin"; file="$hoc"; fi
    report="$(sim "$bin" "$file" --games "$mcts_games" --players 2 --agents mcts:200)"
    per_game="$(awk -v s="$(printf '%s' "$report" | field seconds)" -v g="$mcts_games" 'BEGIN {print s / g}')"
    if [ "$side" = old ]; then olds+=("$per_game"); else news+=("$per_game"); fi
  done
done
if [ "$mcts_rounds" -gt 0 ]; then
  old_median="$(printf '%s\n' "${olds[@]}" | median)"
  new_median="$(printf '%s\n' "${news[@]}" | median)"
  printf 'mcts:200 on %s, 2 players, %s games x %s rounds: old %.2f s/game, new %.2f s/game, speed-up %.2fx\n' \
    "$hoc" "$mcts_games" "$mcts_rounds" "$old_median" "$new_median" \
    "$(awk -v o="$old_median" -v n="$new_median" 'BEGIN {print o / n}')"
fi

if [ "$memory" != 0 ]; then
  # Peak resident set size in KB of a command (GNU time when present, else the kernel's VmHWM).
  peak_kb() {
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p'
    else
      "$@" >/dev/null 2>&1 &
      local pid=$! hwm=0 now
      while kill -0 "$pid" 2>/dev/null; do
        now="$(sed -nE 's/^VmHWM:[[:space:]]+([0-9]+) kB/\1/p' "/proc/$pid/status" 2>/dev/null || true)"
        [ -n "$now" ] && hwm="$now"
        sleep 0.05
      done
      wait "$pid" || true
      echo "$hwm"
    fi
  }
  mr="examples/market-race.cardgame"
  small="$(peak_kb "$new_bin" sim "$mr" --games 10000 --jobs 1 --format json)"
  large="$(peak_kb "$new_bin" sim "$mr" --games 100000 --jobs 1 --format json)"
  echo "peak resident memory of the new build, sim $mr --jobs 1: ${small} KB for 10,000 games, ${large} KB for 100,000 games"
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
