#!/usr/bin/env bash
# Profiles one harness scenario with JFR and prints the hottest frames.
#
#   bench/profile.sh SCENARIO [run.sh options...]     e.g. bench/profile.sh gc-storm --size gc=10000 --no-build
#
# Writes bench/results/profile-SCENARIO.jfr (not committed) and prints: the threads sampled, top
# frames by self time, and ovnj methods by inclusive samples (how often the method is anywhere on
# the stack). PROFILE_FROM / PROFILE_TO (HH:MM:SS, compared with each sample's start time) keep
# only part of the run: the harness prints the time at every scenario header, before every
# bulk-create client, and where scale's incremental changes begin.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:?scenario}; shift
jfr_file=$PWD/bench/results/profile-$scenario.jfr
# A JVM the harness forks (scale: one per size, ScaleFork) records into the same name with its own
# suffix (profile-scale-scale-1k.jfr); the samples of all of them are counted together.
rm -f "${jfr_file%.jfr}"-*.jfr
BENCH_JAVA_OPTS="-XX:StartFlightRecording=filename=$jfr_file,settings=profile" \
  bench/run.sh --quick --only "$scenario" --out "$(mktemp -d)" "$@"
samples=$(mktemp)
# One line per sample: start time, thread, then the frames separated by '|'.
for f in "$jfr_file" "${jfr_file%.jfr}"-*.jfr; do
  [ -e "$f" ] || continue
  jfr print --events jdk.ExecutionSample "$f"
done | awk -v from="${PROFILE_FROM:-00:00:00}" -v to="${PROFILE_TO:-99:99:99}" '
  /^jdk.ExecutionSample/ {t=""; th=""; st=""; inst=0; next}
  /startTime = / {t=$3}
  /sampledThread = / {th=$3; gsub(/"/, "", th); gsub(/[0-9]+/, "N", th)}
  /stackTrace = \[/ {inst=1; next}
  inst && /^[ \t]*\]/ {inst=0; next}
  inst {f=$0; sub(/^[ \t]+/, "", f); sub(/[ \t]+line:.*/, "", f); if (f != "...") st = st "|" f; next}
  /^}/ {if (t >= from && t < to && st != "") print t "\t" th "\t" substr(st, 2)}
' > "$samples"
echo "== $(wc -l < "$samples") execution samples between ${PROFILE_FROM:-start} and ${PROFILE_TO:-end}"
echo "== threads"
cut -f2 "$samples" | sort | uniq -c | sort -rn | head -8
echo "== top frames (self)"
cut -f3 "$samples" | cut -d'|' -f1 | sort | uniq -c | sort -rn | head -25
echo "== ovnj methods (inclusive)"
cut -f3 "$samples" | awk -F'|' '{delete seen; for (i = 1; i <= NF; i++) if ($i ~ /^dev\.ovnj/ && !($i in seen)) {seen[$i] = 1; n[$i]++}}
  END {for (m in n) print n[m], m}' | sort -rn | head -30
rm -f "$samples"
