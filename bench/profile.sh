#!/usr/bin/env bash
# Profiles one harness scenario with JFR and prints the hottest frames.
#
#   bench/profile.sh SCENARIO [run.sh options...]     e.g. bench/profile.sh gc-storm --size gc=10000 --no-build
#
# Writes bench/results/profile-SCENARIO.jfr (not committed) and prints: the threads sampled, top
# frames by self time, and ovnj methods by inclusive samples (how often the method is anywhere on
# the stack); then each thread's CPU, compiler threads included, and the JIT's compilations. The
# execution samples cover Java code only: a C2 compiler thread busy on the second core never shows
# in them (round 6 found a measured converge paying 300 ms of C2 time that way), so the recording
# uses JFR's `profile` settings with the threads' CPU load every 100 ms and every compilation.
# PROFILE_FROM / PROFILE_TO (HH:MM:SS or HH:MM:SS.mmm, compared with each event's start time) keep
# only part of the run: the harness prints the time at every scenario header, before every
# bulk-create client and measured converge, and where scale's incremental changes begin.
#
# PROFILE_AGAIN=1 skips the run and reads the recordings the last one left, e.g. to look at
# another window of it.
#
# PROFILE_WITH=async samples with async-profiler (tools.profiler:async-profiler 3.0 from Maven
# Central, fetched once) instead of JFR's sampler, into the same file format: every thread's CPU,
# not only Java code's, so the garbage collector's threads (G1's concurrent refinement), the JIT's
# and the kernel's frames (page faults, waking another thread) are in the samples and their
# shares. Kernel frames need perf events (root, or kernel.perf_event_paranoid <= 1). The recording
# then has no per-thread CPU load or compilation events; the threads' sample counts stand in.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:?scenario}; shift
jfr_file=$PWD/bench/results/profile-$scenario.jfr
# A JVM the harness forks (scale: one per size, ScaleFork) records into the same name with its own
# suffix (profile-scale-scale-1k.jfr); the samples of all of them are counted together.
[ "${PROFILE_AGAIN:-}" = 1 ] || rm -f "$jfr_file" "${jfr_file%.jfr}"-*.jfr
settings=$(mktemp --suffix=.jfc)
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
# JFR's profile settings, with the threads' CPU load every 100 ms (not 10 s) and every compilation
# (not only those over 100 ms).
awk '
  /<event name="jdk.ThreadCPULoad">/ {ev = "cpu"} /<event name="jdk.Compilation">/ {ev = "comp"}
  /<\/event>/ {ev = ""}
  ev == "cpu" && /name="period"/ {sub(/>[^<]*</, ">100 ms<")}
  ev == "comp" && /name="threshold"/ {sub(/>[^<]*</, ">0 ms<")}
  {print}' "$java_home/lib/jfr/profile.jfc" > "$settings"
if [ "${PROFILE_WITH:-jfr}" = async ]; then
  version=3.0
  agent=$PWD/bench/target/async-profiler-$version/linux-x64/libasyncProfiler.so
  if [ ! -e "$agent" ]; then
    dir=$(dirname "$(dirname "$agent")")
    # Copied out of whatever local repository Maven uses, not a path guessed under ~/.m2.
    mvn -B -q -ntp dependency:copy -Dartifact=tools.profiler:async-profiler:$version -DoutputDirectory="$dir"
    (cd "$dir" && jar xf async-profiler-$version.jar linux-x64)
  fi
  # One sample per millisecond of a thread's CPU; `file=` gets each forked JVM's suffix (ScaleFork).
  profiler_opts="-agentpath:$agent=start,event=cpu,interval=1ms,jfr,file=$jfr_file"
else
  profiler_opts="-XX:StartFlightRecording=filename=$jfr_file,settings=$settings"
fi
[ "${PROFILE_AGAIN:-}" = 1 ] || BENCH_JAVA_OPTS="$profiler_opts" bench/run.sh --quick --only "$scenario" --out "$(mktemp -d)" "$@"
samples=$(mktemp)
# One line per sample: start time, thread, then the frames separated by '|'.
for f in "$jfr_file" "${jfr_file%.jfr}"-*.jfr; do
  [ -e "$f" ] || continue
  # The whole stack as recorded (JFR keeps 64 frames); `jfr print` shows only 5 unless told, and
  # the inclusive counts below were of those 5 until round 9.
  jfr print --stack-depth 64 --events jdk.ExecutionSample "$f"
done | awk -v from="${PROFILE_FROM:-00:00:00}" -v to="${PROFILE_TO:-99:99:99}" '
  /^jdk.ExecutionSample/ {t=""; th=""; st=""; inst=0; next}
  /startTime = / {t=$3}
  /sampledThread = / {th=$0; sub(/.*sampledThread = "/, "", th); sub(/".*/, "", th); gsub(/[0-9]+/, "N", th)}
  /stackTrace = \[/ {inst=1; next}
  inst && /^[ \t]*\]/ {inst=0; next}
  inst {f=$0; sub(/^[ \t]+/, "", f); sub(/[ \t]+line:.*/, "", f); if (f != "...") st = st "|" f; next}
  /^}/ {if (t >= from && t < to && st != "") print t "\t" th "\t" substr(st, 2)}
' > "$samples"
echo "== $(wc -l < "$samples") execution samples between ${PROFILE_FROM:-start} and ${PROFILE_TO:-end}"
echo "== threads"
cut -f2 "$samples" | sort | uniq -c | sort -rn | awk 'NR <= 12'
echo "== top frames (self)"
cut -f3 "$samples" | cut -d'|' -f1 | sort | uniq -c | sort -rn | awk 'NR <= 25'
echo "== ovnj methods (inclusive)"
cut -f3 "$samples" | awk -F'|' '{delete seen; for (i = 1; i <= NF; i++) if ($i ~ /^dev\.ovnj/ && !($i in seen)) {seen[$i] = 1; n[$i]++}}
  END {for (m in n) print n[m], m}' | sort -rn | awk 'NR <= 30'
rm -f "$samples" "$settings"
if [ "${PROFILE_WITH:-jfr}" = async ]; then
  echo "== (async-profiler: no per-thread CPU load or compilation events; the thread counts above are CPU samples, one per ms)"
  exit 0
fi
from=${PROFILE_FROM:-00:00:00}; to=${PROFILE_TO:-99:99:99}
echo "== thread CPU between ${PROFILE_FROM:-start} and ${PROFILE_TO:-end} (seconds; JIT compiler threads included, GC and VM threads not)"
for f in "$jfr_file" "${jfr_file%.jfr}"-*.jfr; do
  [ -e "$f" ] || continue
  jfr print --events jdk.ThreadCPULoad "$f"
done | awk -v from="$from" -v to="$to" -v cores="$(nproc)" '
  /^jdk.ThreadCPULoad/ {t = ""; u = 0; s = 0; th = ""}
  /startTime = / {t = $3}
  /^ *user = / {u = $3; sub(/%/, "", u)}
  /^ *system = / {s = $3; sub(/%/, "", s)}
  /eventThread = / {th = $0; sub(/.*eventThread = "/, "", th); sub(/".*/, "", th); gsub(/[0-9]+/, "N", th)}
  /^}/ {if (t >= from && t < to && th != "") cpu[th] += (u + s) / 100 * cores * 0.1}
  END {for (x in cpu) if (cpu[x] >= 0.005) printf "  %7.2f %s\n", cpu[x], x}' | sort -rn | awk 'NR <= 12'
echo "== JIT compilations between ${PROFILE_FROM:-start} and ${PROFILE_TO:-end}, the longest first"
compilations=$(mktemp)
for f in "$jfr_file" "${jfr_file%.jfr}"-*.jfr; do
  [ -e "$f" ] || continue
  jfr print --events jdk.Compilation "$f"
done | awk -v from="$from" -v to="$to" '
  /^jdk.Compilation/ {t = ""; d = 0; m = ""}
  /startTime = / {t = $3}
  /^ *duration = / {d = $3; if ($4 == "s") d *= 1000; else if ($4 == "us") d /= 1000; else if ($4 == "ns") d /= 1e6}
  /^ *method = / {m = $0; sub(/.*method = /, "", m)}
  /^}/ {if (t >= from && t < to) print d "\t" m}' > "$compilations"
awk -F'\t' '{n++; total += $1} END {printf "  %d compilations, %.0f ms\n", n, total}' "$compilations"
sort -t$'\t' -k1,1 -rn "$compilations" | awk -F'\t' 'NR <= 8 {printf "  %8.1f ms %s\n", $1, $2}'
rm -f "$compilations"
