#!/usr/bin/env bash
# End-to-end benchmark of ovnj against the OVS Python IDL, the ovn-nbctl daemon and OpenDaylight's OVSDB library.
#
#   bench/run.sh [--quick] [--only SCENARIO,...] [--size NAME=N]... [--out DIR] [--no-build] [--jmh|--no-jmh]
#
# Builds what it needs, starts its own ovsdb-server processes through the testkit, runs every
# scenario and writes bench/results/latest.json, latest.md and the SVG plots; the full run (without
# --quick or --only) then runs the JMH micro-benchmarks into jmh.txt and appends them to latest.md.
# Scenarios: bulk-create, bulk-create-monitor, bulk-create-cluster, sync, engine, scale,
# gc-storm, failover, doctor, cli-status, restart-apply, cli-startup (the last three: issue 33, whole `ovnj`
# commands through the ./ovnj launcher and a restarted controller); soak (10 minutes of churn, foreign
# deletions and a server restart a minute; --size soak-seconds=3600 for an hour) only with --only soak,
# or for 25 s with --quick. Peers: OVS Python IDL, ovn-nbctl daemon, OpenDaylight OVSDB library.
#   --quick  small sizes, a few minutes; used in CI
#   --size   override one size (bulk, monitor, cluster, sync, engine, incremental, drift, failover,
#            window, gc, scale-changes, warm-changes, scale-forks, bulk-passes, soak-seconds, soak-window,
#            soak-specs; scale=1000,10000,100000 for the scale curve,
#            each size measured in a JVM of its own with these JVM options)
#   --out DIR   write the results elsewhere (default bench/results)
#   --no-build  reuse the last build (for profiling loops)
#   --jmh    run the JMH micro-benchmarks (short settings) even with --quick or --only
#   --no-jmh skip them in a full run
# BENCH_JAVA_OPTS adds JVM options (e.g. -XX:StartFlightRecording=filename=x.jfr for profiling).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command="bench/run.sh $*"

args=()
jmh=auto
quick=false
build=true
out=bench/results
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) args+=(--quick); quick=true; [ "$jmh" = auto ] && jmh=false ;;
    --only) args+=(--only "$2"); [ "$jmh" = auto ] && jmh=false; shift ;;
    --size) args+=(--size "$2"); shift ;;
    --no-build) build=false ;;
    --out) out=$2; shift ;;
    --jmh) jmh=true ;;
    --no-jmh) jmh=false ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

for tool in ovsdb-server ovsdb-tool ovn-nbctl /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool (scripts/install-ovs.sh installs OVS/OVN)" >&2; exit 1; }
done
/usr/bin/python3 -c 'import ovs.db.idl' || { echo "/usr/bin/python3 lacks the ovs module (apt-get install python3-openvswitch)" >&2; exit 1; }

cp_file=$root/bench/target/classpath.txt
if $build || [ ! -s "$cp_file" ]; then
  # A reactor build of bench and the modules it needs; nothing is installed into ~/.m2, which
  # other checkouts may share. The reactor resolves ovnj's own modules to their target/classes;
  # bench's classpath is written last, so the file ends up holding it.
  mvn -B -q -ntp -pl bench -am compile dependency:build-classpath \
    -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime
fi
# ovnj's own modules come from this worktree's target/classes, never from ~/.m2 (a classpath
# file written by an older run.sh may still name installed jars).
classpath="bench/target/classes"
IFS=: read -r -a entries < "$cp_file" || true  # the file has no trailing newline
for e in "${entries[@]}"; do
  case "$e" in
    */dev/ovnj/*/*/*.jar)
      module=$(basename "$(dirname "$(dirname "$e")")")
      e=$root/$module/target/classes ;;
  esac
  classpath="$classpath:$e"
done

# A fixed heap so heap figures do not depend on the machine's default sizing. MaxHeapFreeRatio=100:
# the heap never shrinks. The harness collects (System.gc) right before each measured part, and
# after the 100,000-spec converge G1 then uncommitted about 3 GB; the measured upserts allocated in
# pages handed back to the kernel, 7.6 minor page faults per change (0.01 at 1,000 specs), which
# doubled every client thread's CPU per change and made the scale curve's tail follow the heap's
# history, not the number of specs. A controller that runs for days does not hand its heap back
# between changes, so neither does the harness.
java_opts=(-Xms2g -Xmx6g -XX:+UseG1GC -XX:MaxHeapFreeRatio=100 -XX:-UseDynamicNumberOfCompilerThreads -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${BENCH_JAVA_OPTS:-})
# --quick runs the harness so that it never rots (CI), not for its figures: two warm passes per
# client instead of up to twelve (JitWarmth), which were most of its time. Forks inherit it.
$quick && java_opts+=(-Dovnj.bench.warmPasses=2)

java "${java_opts[@]}" -cp "$classpath" dev.ovnj.bench.Scenarios "${args[@]}" \
  --out "$out" --peers bench/peers --command "$command"

# The micro-benchmarks belong to the full run: they isolate the client-side costs (decode, plan,
# diagnosis) that the scenarios above only show mixed with the server's.
if [ "$jmh" != false ]; then
  java -cp "$classpath" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 5 -r 1s -rf text -rff "$out/jmh.txt" \
    'dev.ovnj.bench.jmh.*'
  { printf '\n## JMH micro-benchmarks\n\n`org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 5 -r 1s` (one fork, short settings)\n\n```\n'
    cat "$out/jmh.txt"
    printf '```\n'; } >> "$out/latest.md"
fi
