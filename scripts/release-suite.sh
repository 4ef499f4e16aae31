#!/usr/bin/env bash
# Runs the release compatibility suite against one OVS/OVN release and prints one summary line:
#   ci: release <suite> ovs X ovn Y: N tests, F failures
# <suite> is a Debian suite whose root scripts/ovn-release-root.sh builds (trixie, sid), or "host"
# for the machine's own binaries. The suite is the integration tests whose subject is what differs
# between releases (docs/testing.md, "Other OVS/OVN releases"); unit tests, benchmarks and the
# container tests stay in the main run. Extra arguments go to Maven.
set -uo pipefail
cd "$(dirname "$0")/.."
suite=${1:?usage: scripts/release-suite.sh <debian-suite|host> [maven args]}
shift

# Protocol core, cluster failover, relays, probes, the models against each schema, the in-memory
# server's differential against the real one, the engine, health checks and doctor with ovn-northd,
# features by release, the CLI, and the data plane (the release's own ovs-vswitchd and
# ovn-controller carrying real packets; the heavy-churn case, 32 load balancers deleted at once,
# runs in full only on 25.03 and newer: OVS 3.1's userspace conntrack died on an assertion under it).
TESTS=OvnReleaseIT,OvsdbServerIT,OvsdbClusterIT,OvsdbRelayIT
TESTS+=,OvsdbClientIT,MonitorIT,TransactOperationsIT,ClusterFailoverIT,RelayIT,ProbeIT,LockIT
TESTS+=,SchemaCompatibilityIT,DifferentialIT,NbctlDifferentialIT,NbctlCommandIT
TESTS+=,EngineIT,EngineClusterIT,HealthCheckIT,HealthCheckSourceIT,BackendHealthViewIT,OperatingStatusIT,FeatureSupportIT,ReleaseFeaturesIT,DiagnosisIT,SourceRangesIT,ScaleAdviceIT
TESTS+=,DoctorIT,DoctorFromIT,CommandsIT,HealthCheckCliIT
TESTS+=,ChassisIT,EipTrafficIT,ServiceTrafficIT,DoctorDataPlaneIT,SkipSnatRoutersIT
MODULES=ovsdb-core,testkit,testkit-inmemory,ovn-nb-model,lb-engine,ovnj-kubernetes,cli

if [ "$suite" = host ]; then
  unset OVNJ_RELEASE_ROOT
  ovs=$(ovsdb-server --version | awk 'NR == 1 { print $NF }')
  ovn=$(ovn-nbctl --version | awk 'NR == 1 { print $NF }')
else
  if ! root=$(scripts/ovn-release-root.sh "$suite" 2>/tmp/ovnj-release-root-"$suite".log | tail -1) || [ -z "$root" ]; then
    echo "ci: release $suite: no root filesystem ($(tail -1 /tmp/ovnj-release-root-"$suite".log)); not run"
    exit 0
  fi
  export OVNJ_RELEASE_ROOT="$root"
  read -r ovs ovn < <(sed -n 's/^.* ovs \([^ ]*\) ovn \([^,]*\),.*$/\1 \2/p' "$root/.ovnj-root-complete")
fi

# Only this run's reports are counted.
rm -f ./*/target/failsafe-reports/TEST-*.xml
# -Dinmemory.skip: lb-engine's second run on the in-memory server does not depend on the release.
mvn -B -ntp verify -Dmaven.javadoc.skip=true -Dinmemory.skip=true -Dtest=NoUnitTests \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dit.test="$TESTS" -pl "$MODULES" -am -Dmaven.test.failure.ignore=true "$@" > "/tmp/ovnj-release-$suite.log" 2>&1
rc=$?
reports=$(ls ./*/target/failsafe-reports/TEST-*.xml 2>/dev/null || true)
if [ -z "$reports" ]; then
  echo "ci: release $suite ovs $ovs ovn $ovn: no test reports (maven exited $rc, /tmp/ovnj-release-$suite.log)"
  exit 1
fi
# shellcheck disable=SC2086
summary=$(grep -ho '<testsuite [^>]*' $reports | awk '
  { match($0, / tests="[0-9]+"/); t += substr($0, RSTART + 8, RLENGTH - 9)
    match($0, / failures="[0-9]+"/); f += substr($0, RSTART + 11, RLENGTH - 12)
    match($0, / errors="[0-9]+"/); f += substr($0, RSTART + 9, RLENGTH - 10) }
  END { print t " tests, " f " failures" }')
echo "ci: release $suite ovs $ovs ovn $ovn: $summary"
# The reports stay readable after the next release's run replaces them.
mkdir -p "target/release-reports/$suite"
# shellcheck disable=SC2086
cp $reports "target/release-reports/$suite/"
case "$summary" in *" 0 failures") exit 0 ;; *) exit 1 ;; esac
