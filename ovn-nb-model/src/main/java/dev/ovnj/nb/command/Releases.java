package dev.ovnj.nb.command;

import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.Map;

/** Names the OVN release behind a Northbound schema version, for refusals of what it lacks. */
final class Releases {
    // The schema versions of the releases ovnj is tested on (docs/testing.md).
    private static final Map<String, String> OVN_BY_SCHEMA = Map.of(
            "7.0.0", "23.03",
            "7.11.0", "25.03",
            "7.18.0", "26.03");

    private Releases() {
    }

    static String describe(DatabaseSchema schema) {
        String version = schema.version().orElse("unknown");
        String release = OVN_BY_SCHEMA.get(version);
        return "OVN_Northbound schema " + version + (release == null ? "" : ", OVN " + release);
    }
}
