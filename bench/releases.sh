#!/usr/bin/env bash
# Issue 36's figures per OVS/OVN release (docs/benchmarks.md, "Releases"): Northbound sync time and
# heap at 50,000 load balancers, `ovnj doctor --sb` at 10,000 with ovn-northd's Southbound, and the
# probes-under-load check (inactivity-probe disconnects of doctor runs and of paired NB+SB syncs).
#
#   bench/releases.sh [--releases host,trixie,sid] [--no-build] [KEY=N ...]
#
# KEY=N go to dev.ovnj.bench.ReleaseLoad: sync=50000 central=10000 runs=5 pairs=5 ports=1 (0 skips a part;
# ports=0 puts the load balancers on the switch only, without a port each, a lighter load for ovn-northd),
# e.g. `bench/releases.sh --releases sid sync=0 central=100000 ports=0 runs=0 pairs=3` for the 100,000-LB
# probe check. Other releases come from scripts/ovn-release-root.sh (cached roots). Not part of bench/run.sh:
# minutes per release. Prints one line per release; the JSON of each goes to bench/results/release-SUITE.json.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
releases=host,trixie,sid
build=true
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --releases) releases=$2; shift ;;
    --no-build) build=false ;;
    *=*) args+=("$1") ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

cp_file=$root/bench/target/classpath.txt
if $build || [ ! -s "$cp_file" ]; then
  mvn -B -q -ntp -pl bench -am compile dependency:build-classpath \
    -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime
  # The doctor runs are whole `ovnj` processes: the launcher builds its jar when stale, not measured here.
  ./ovnj version >/dev/null
fi
classpath="bench/target/classes"
IFS=: read -r -a entries < "$cp_file" || true
for e in "${entries[@]}"; do
  case "$e" in
    */dev/ovnj/*/*/*.jar) e=$root/$(basename "$(dirname "$(dirname "$e")")")/target/classes ;;
  esac
  classpath="$classpath:$e"
done

mkdir -p bench/results
IFS=, read -r -a suites <<< "$releases"
for suite in "${suites[@]}"; do
  if [ "$suite" = host ]; then
    unset OVNJ_RELEASE_ROOT
  else
    OVNJ_RELEASE_ROOT=$(scripts/ovn-release-root.sh "$suite" | tail -1)
    export OVNJ_RELEASE_ROOT
  fi
  out=bench/results/release-$suite.json
  java -Xms2g -Xmx8g -XX:+UseG1GC -XX:MaxHeapFreeRatio=100 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${BENCH_JAVA_OPTS:-} \
    -cp "$classpath" dev.ovnj.bench.ReleaseLoad ${args[@]+"${args[@]}"} out="$out" | tee "bench/results/release-$suite.log"
  echo "release $suite: $(grep -o '"release: [^"]*' "$out" | head -1 | cut -c11-) -> $out"
done
