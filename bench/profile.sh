#!/usr/bin/env bash
# Profiles one harness scenario with JFR and prints the hottest frames.
#
#   bench/profile.sh SCENARIO [run.sh options...]     e.g. bench/profile.sh engine --size engine=10000
#
# Writes bench/results/profile-SCENARIO.jfr (not committed) and prints: top frames by self time,
# and ovnj methods by inclusive samples (how often the method is anywhere on the stack).
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:?scenario}; shift
jfr_file=$PWD/bench/results/profile-$scenario.jfr
BENCH_JAVA_OPTS="-XX:StartFlightRecording=filename=$jfr_file,settings=profile" \
  bench/run.sh --quick --only "$scenario" --out "$(mktemp -d)" "$@"
samples=$(mktemp)
jfr print --events jdk.ExecutionSample "$jfr_file" > "$samples"
echo "== $(grep -c 'jdk.ExecutionSample' "$samples") execution samples"
echo "== top frames (self)"
awk '/stackTrace = \[/{getline; sub(/line:.*/, ""); print $1}' "$samples" | sort | uniq -c | sort -rn | head -25
echo "== ovnj methods (inclusive)"
awk '/stackTrace = \[/{f=1; delete seen; next}
     f && /dev\.ovnj|String\.matches|Set\.copyOf/ {sub(/line:.*/, ""); m=$1; if (!(m in seen)) {seen[m]=1; n[m]++}}
     /^[ \t]*\]/{f=0}
     END {for (m in n) print n[m], m}' "$samples" | sort -rn | head -30
rm -f "$samples"
