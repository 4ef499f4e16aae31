package dev.ovnj.ovsdb.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer fuzz targets for everything a server sends. Without {@code JAZZER_FUZZ} they run the
 * committed corpus in {@code InboundFuzzTestInputs/<method>/} (real ovsdb-server 3.1 messages and
 * past findings) as regression tests; {@code scripts/fuzz.sh} fuzzes each for a bounded time.
 */
class InboundFuzzTest {

    /** Raw bytes through framing, JSON-RPC and monitor decoding, in chunks. */
    @FuzzTest(maxDuration = "60s")
    void wireBytes(byte[] data) {
        InboundHarness.frames(data);
    }

    /** One well-formed JSON document interpreted as a monitor reply or notification. */
    @FuzzTest(maxDuration = "40s")
    void monitorMessage(byte[] data) {
        InboundHarness.parsed(data);
    }

    /** A get_schema reply. */
    @FuzzTest(maxDuration = "20s")
    void schema(byte[] data) {
        InboundHarness.schema(data);
    }
}
