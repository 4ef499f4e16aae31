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

    /** Whether the schema is newer than OVN 23.03's (7.0.0): ovn-nbctl changed a few details after it. */
    static boolean after2303(DatabaseSchema schema) {
        return compare(schema.version().orElse("0.0.0"), "7.0.0") > 0;
    }

    /** Whether the schema is OVN 26.03's (7.18.0) or newer. */
    static boolean since2603(DatabaseSchema schema) {
        return compare(schema.version().orElse("0.0.0"), "7.18.0") >= 0;
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0;
            int q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
    }

    static String describe(DatabaseSchema schema) {
        String version = schema.version().orElse("unknown");
        String release = OVN_BY_SCHEMA.get(version);
        return "OVN_Northbound schema " + version + (release == null ? "" : ", OVN " + release);
    }
}
