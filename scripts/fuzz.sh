#!/usr/bin/env bash
# Bounded coverage-guided fuzzing of the client's inbound decoders with Jazzer (JAZZER_FUZZ=1).
# Each target runs for its @FuzzTest maxDuration unless FUZZ_SECONDS overrides it; the defaults
# (60 s + 40 s + 20 s) keep the whole pass under two minutes of fuzzing. Findings are written to
# ovsdb-core/src/test/resources/dev/ovnj/ovsdb/fuzz/InboundFuzzTestInputs/<target>/ and are then
# replayed by every normal build; commit them together with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A seconds=([wireBytes]=60 [monitorMessage]=40 [schema]=20)
mvn -B -q -ntp install -DskipTests -pl ovsdb-core -am
for target in wireBytes monitorMessage schema; do
  echo "== fuzzing InboundFuzzTest#$target for ${FUZZ_SECONDS:-${seconds[$target]}} s"
  JAZZER_FUZZ=1 mvn -B -q -ntp -o -pl ovsdb-core surefire:test \
    -Dtest="InboundFuzzTest#$target" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.max_duration="${FUZZ_SECONDS:-${seconds[$target]}}s"
done
