#!/usr/bin/env bash
# Fuzz the doc and YAML readers, seeded with the seed docs, the YAML specs and (if present) the corpus.
# Usage: fuzz/run.sh [SECONDS per target, default 600]
# Needs cargo-fuzz (`cargo install cargo-fuzz`); libFuzzer's -Z flags run on stable via RUSTC_BOOTSTRAP.
# A crash input lands in fuzz/artifacts/<target>/; after fixing it, copy it to fuzz/regressions/<target>/,
# where tests/it/fuzz_regressions.rs replays it in every `cargo test`.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
export RUSTC_BOOTSTRAP=1
mkdir -p corpus/read_doc corpus/read_spec
cp ../specs/docs/* corpus/read_doc/
cp ../specs/ops/*.yaml corpus/read_spec/ 2>/dev/null || true
# The shared corpus seeds read_doc as extra, read-only folders: libFuzzer writes only to the first.
seeds=()
for d in ../../shared/corpus/ops-nn/docs ../../shared/corpus/ops-nn-2025-12/docs; do
  [ -d "$d" ] && seeds+=("$d")
done
cp regressions/read_doc/* corpus/read_doc/ 2>/dev/null || true
cp regressions/read_spec/* corpus/read_spec/ 2>/dev/null || true
echo "== fuzzing read_doc for ${secs}s"
cargo fuzz run -O read_doc corpus/read_doc "${seeds[@]}" -- -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=262144
echo "== fuzzing read_spec for ${secs}s"
cargo fuzz run -O read_spec corpus/read_spec -- -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=65536
