package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.nb.ip.IpAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * Canonical text of VIPs and backends, so that {@code [fd00:0::1]:80} written by one client and
 * {@code [fd00::1]:80} written by northd compare equal. Text that does not parse is kept as
 * written (trimmed): another client's malformed VIP must not stop a diagnosis.
 */
final class Endpoints {
    private Endpoints() {
    }

    /** The canonical {@code IP:PORT} (or bare IP) of one endpoint. */
    static String canonical(String text) {
        try {
            return Endpoint.parse(text).toString();
        } catch (IllegalArgumentException malformed) {
            return text.trim();
        }
    }

    /**
     * The canonical IP of an endpoint or of a bare address (northd writes IPv6 addresses without
     * brackets in matches and service monitors), or empty text when it does not parse.
     */
    static String host(String text) {
        String t = text.trim();
        try {
            if (!t.startsWith("[") && t.indexOf(':') != t.lastIndexOf(':')) {
                return IpAddresses.format(IpAddresses.parse(t));
            }
            return Endpoint.parse(t).host();
        } catch (IllegalArgumentException malformed) {
            return "";
        }
    }

    /** The canonical backends of a comma-separated list, in order, blanks dropped. */
    static List<String> backends(String csv) {
        List<String> out = new ArrayList<>();
        for (String b : csv.split(",")) {
            if (!b.isBlank()) {
                out.add(canonical(b));
            }
        }
        return out;
    }
}
