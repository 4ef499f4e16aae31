#!/usr/bin/env bash
# End-to-end benchmark of ovnj against the OVS Python IDL and the ovn-nbctl daemon.
#
#   bench/run.sh [--quick] [--only bulk-create,sync,engine,failover] [--size engine=2000]... [--no-build] [--jmh]
#
# Builds what it needs, starts its own ovsdb-server processes through the testkit, runs every
# scenario and writes bench/results/latest.json and bench/results/latest.md.
#   --quick  small sizes (~1/20), under 3 minutes; used in CI
#   --size   override one size (bulk, sync, engine, incremental, drift, failover, window)
#   --out DIR   write the results elsewhere (default bench/results)
#   --no-build  reuse the last build (for profiling loops)
#   --jmh    also run the JMH micro-benchmarks (short settings) into bench/results/jmh.txt
# BENCH_JAVA_OPTS adds JVM options (e.g. -XX:StartFlightRecording=filename=x.jfr for profiling).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command="bench/run.sh $*"

args=()
jmh=false
build=true
out=bench/results
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) args+=(--quick) ;;
    --only) args+=(--only "$2"); shift ;;
    --size) args+=(--size "$2"); shift ;;
    --no-build) build=false ;;
    --out) out=$2; shift ;;
    --jmh) jmh=true ;;
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
  # Only the jars are needed here; -sources/-javadoc jars would add ~100 s on 2 cores.
  mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true install
  mvn -B -q -pl bench dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime >/dev/null
fi
# ovnj's own modules come from this worktree's target/classes, not from ~/.m2: the local
# repository may be shared with other checkouts that install their own snapshots.
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

# A fixed heap so heap figures do not depend on the machine's default sizing.
java_opts=(-Xms2g -Xmx6g -XX:+UseG1GC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${BENCH_JAVA_OPTS:-})

java "${java_opts[@]}" -cp "$classpath" dev.ovnj.bench.Scenarios "${args[@]}" \
  --out "$out" --peers bench/peers --command "$command"

if $jmh; then
  java -cp "$classpath" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 5 -r 1s -rf text -rff bench/results/jmh.txt \
    'dev.ovnj.bench.jmh.*'
fi
