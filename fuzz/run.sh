#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each, one after another, from the corpus in
# fuzz/corpus/<target>/ (new inputs go to WORK/corpus/<target>/, crashes to WORK/artifacts/<target>/),
# and prints one line per target: executions, seconds, coverage, features, crashes.
# Usage: fuzz/run.sh SECONDS [WORK] [TARGET...]; exit 1 if any target crashed.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [WORK] [TARGET...]}
work=${2:-$(mktemp -d)}
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
cargo +nightly fuzz build >&2 || exit 2
failed=0
for t in "${targets[@]}"; do
    mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
    log="$work/$t.log"
    # Sessions start search threads: at most 2 GB and 30 s per input.
    cargo +nightly fuzz run "$t" "$work/corpus/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    time=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    crashes=$(find "$work/artifacts/$t" -type f | wc -l)
    printf '%-14s executions %-10s seconds %-5s %-22s crashes %s\n' "$t" "${execs:-?}" "${time:-?}" "${cov:-?}" "$crashes"
    if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        failed=1
        grep -m1 -A12 -E 'panicked|ERROR: libFuzzer' "$log" >&2
    fi
done
exit $failed
