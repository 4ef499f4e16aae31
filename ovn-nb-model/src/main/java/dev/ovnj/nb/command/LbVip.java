package dev.ovnj.nb.command;

import java.util.ArrayList;
import java.util.List;

/**
 * A load balancer VIP and its backends as {@code lb-add} validates and normalizes them
 * ({@code [IPv6]:port} keys, family and port agreement between VIP and backends).
 *
 * @param key the normalized {@code vips} key
 * @param port the VIP's port, or null
 * @param backends the normalized backends, comma-separated
 */
record LbVip(String key, String port, String backends) {

    /** An address with an optional port; {@code v6} tells the family. */
    private record Endpoint(String ip, String port, boolean v6) {
        String format(boolean brackets) {
            String host = brackets ? "[" + ip + "]" : ip;
            return port == null ? host : host + ":" + port;
        }
    }

    private static Endpoint endpoint(String s) {
        String host = s;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return null;
                }
                port = rest.substring(1);
            }
            if (Addresses.ipv6(host) == null) {
                return null;
            }
        } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
            host = s.substring(0, s.indexOf(':'));
            port = s.substring(s.indexOf(':') + 1);
        }
        if (port != null) {
            if (!port.matches("\\d{1,5}") || Integer.parseInt(port) > 65535) {
                return null;
            }
            port = Integer.toString(Integer.parseInt(port));
            if (port.equals("0")) {
                port = null;
            }
        }
        String v4 = Addresses.ipv4Address(host);
        if (v4 != null) {
            return new Endpoint(v4, port, false);
        }
        String v6 = Addresses.ipv6Address(host);
        if (v6 != null) {
            return new Endpoint(v6, port, true);
        }
        return null;
    }

    static LbVip parse(String vip, String backends) {
        Endpoint v = endpoint(vip);
        if (v == null) {
            throw new NbctlException(vip + ": should be an IP address (or an IP address and a port number with : as a "
                    + "separator).");
        }
        StringBuilder errors = new StringBuilder();
        List<Endpoint> parsed = new ArrayList<>();
        for (String token : backends.split(",")) {
            if (token.isEmpty()) {
                continue;
            }
            Endpoint b = endpoint(token);
            if (b == null) {
                errors.append(token).append(v.port() != null
                        ? ": should be an IP address and a port number with : as a separator, "
                        : ": should be an IP address, ");
                continue;
            }
            if (b.v6() != v.v6()) {
                errors.append(token).append(": IP address family is different from VIP ").append(v.ip()).append(", ");
                continue;
            }
            if (v.port() != null && b.port() == null) {
                errors.append(token).append(": should be an IP address and a port number with : as a separator, ");
                continue;
            }
            if (v.port() == null && b.port() != null) {
                errors.append(token).append(": should be an IP address, ");
                continue;
            }
            parsed.add(b);
        }
        if (!errors.isEmpty()) {
            throw new NbctlException(errors.substring(0, errors.length() - 2) + ".");
        }
        boolean brackets = v.v6() && v.port() != null;
        List<String> out = new ArrayList<>();
        parsed.forEach(b -> out.add(b.format(brackets)));
        return new LbVip(v.format(brackets), v.port(), String.join(",", out));
    }
}
