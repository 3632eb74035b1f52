#!/usr/bin/env bash
# Runs erkit's libFuzzer targets over their checked-in corpora (fuzz/corpus/<target>/: seeds and
# regression inputs), for a while, and keeps what they find.
#
#   fuzz/run.sh [--build DIR] [--seconds N] [--jobs J] [target...]   (default: every target, 60 s)
#
# The build directory must be configured with clang and -DERKIT_FUZZ=ON (docs/reliability.md);
# missing targets are built first. New interesting inputs go to DIR/fuzz-work/<target>/ (merge
# them into fuzz/corpus/<target>/ with -merge=1 when they are worth keeping); crashes go to
# DIR/fuzz-artifacts/<target>/ and make the script exit non-zero. A crash, once fixed, is
# copied into fuzz/corpus/<target>/ so that every later run (CI included) replays it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../build-fuzz"
seconds=60
jobs=1
targets=()
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  targets=(reader filter selection metricspec rcfile erprint_commands collect_options record_bounds)
fi
build=$(cd "$build" && pwd)
status=0
for t in "${targets[@]}"; do
  bin="$build/bin/fuzz_$t"
  [[ -x "$bin" ]] || cmake --build "$build" --target "fuzz_$t" -j2 >/dev/null
  work="$build/fuzz-work/$t"
  artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$work" "$artifacts" "$here/corpus/$t"
  echo "fuzz/run.sh: $t for ${seconds}s (corpus $here/corpus/$t)"
  par=()
  ((jobs > 1)) && par=(-jobs="$jobs" -workers="$jobs")  # -jobs=1 would still fork a child
  # The first corpus directory receives new inputs; the checked-in one is only read.
  if ! (cd "$build/fuzz-work" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${par[@]}" \
      -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$here/corpus/$t" \
      > "$build/fuzz-work/$t.log" 2>&1); then
    echo "fuzz/run.sh: $t FAILED; last lines of $build/fuzz-work/$t.log:"
    tail -40 "$build/fuzz-work/$t.log"
    status=1
  else
    grep -E "^stat::(number_of_executed_units|new_units_added)|^Done" "$build/fuzz-work/$t.log" | tr '\n' ' '
    echo
  fi
done
exit $status
