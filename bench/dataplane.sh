#!/usr/bin/env bash
# Issue 51's figures on a real OVN data plane (docs/benchmarks.md, "Real packets"): apply() to the
# first answered request split into ovnj / ovn-northd / ovn-controller, and the blackout per
# deletion of a VIP's row repaired by the engine, beside the engine's repair latency and beside the
# floor (a script re-creating the row the moment its delete commits). Needs root and the data-plane
# packages (scripts/install-ovs.sh); OVNJ_RELEASE_ROOT picks another OVS/OVN release.
#
#   bench/dataplane.sh [--no-build] [deletions=20] [applies=5]
#
# Not part of bench/run.sh: it needs root and network namespaces. MAVEN_ARGS adds Maven options
# (e.g. -o -Dmaven.repo.local=...).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=true
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    *=*) args+=("$1") ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
cp_file=$root/bench/target/classpath.txt
if $build || [ ! -s "$cp_file" ]; then
  # shellcheck disable=SC2086
  mvn -B -q -ntp ${MAVEN_ARGS:-} -pl bench -am compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime
fi
classpath="bench/target/classes"
IFS=: read -r -a entries < "$cp_file" || true
for e in "${entries[@]}"; do
  case "$e" in
    */dev/ovnj/*/*/*.jar) e=$root/$(basename "$(dirname "$(dirname "$e")")")/target/classes ;;
  esac
  classpath="$classpath:$e"
done
exec java -Xms256m -Xmx1g -cp "$classpath" dev.ovnj.bench.DataPlaneBench ${args[@]+"${args[@]}"}
