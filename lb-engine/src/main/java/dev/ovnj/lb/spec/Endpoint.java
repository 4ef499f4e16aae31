package dev.ovnj.lb.spec;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An IP address with an optional port, in OVN's load-balancer syntax: {@code 10.0.0.1:80},
 * {@code [fd00::1]:80}, or a bare address. Parsing never resolves host names.
 *
 * @param address the IP address
 * @param port 1..65535, or 0 when absent
 */
public record Endpoint(InetAddress address, int port) {
    // Compiled once: the planner parses every endpoint of every spec on each pass.
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern PORT = Pattern.compile("\\d{1,5}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    /** Validates the port range. */
    public Endpoint {
        Objects.requireNonNull(address, "address");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
    }

    /**
     * Parses an endpoint.
     *
     * @param text e.g. {@code 168.119.17.51:2379} or {@code [2a01:4f8::10]:443}
     * @return the endpoint
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Endpoint parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty address");
        }
        String s = text.trim();
        String host;
        String portText = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("\"" + text + "\": unclosed [ in IPv6 address");
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("\"" + text + "\": expected :PORT after ]");
                }
                portText = rest.substring(1);
            }
            if (!host.contains(":")) {
                throw new IllegalArgumentException("\"" + text + "\": brackets are for IPv6 addresses");
            }
        } else {
            int colons = (int) s.chars().filter(c -> c == ':').count();
            if (colons > 1) {
                throw new IllegalArgumentException("\"" + text + "\": write an IPv6 address with a port as [ADDR]:PORT");
            }
            int c = s.indexOf(':');
            host = c < 0 ? s : s.substring(0, c);
            portText = c < 0 ? null : s.substring(c + 1);
            if (!IPV4.matcher(host).matches()) {
                throw new IllegalArgumentException("\"" + text + "\": \"" + host + "\" is not an IPv4 address");
            }
        }
        int port = 0;
        if (portText != null) {
            if (!PORT.matcher(portText).matches()) {
                throw new IllegalArgumentException("\"" + text + "\": port \"" + portText + "\" is not a number");
            }
            port = Integer.parseInt(portText);
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("\"" + text + "\": port " + port + " is out of range 1..65535");
            }
        }
        return new Endpoint(literal(text, host), port);
    }

    private static InetAddress literal(String text, String host) {
        if (!host.contains(":")) {
            for (String octet : host.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    throw new IllegalArgumentException("\"" + text + "\": \"" + host + "\" is not an IPv4 address");
                }
            }
        } else if (!IPV6_CHARS.matcher(host).matches()) {
            throw new IllegalArgumentException("\"" + text + "\": \"" + host + "\" is not an IPv6 address");
        }
        try {
            // A literal of digits, dots, colons and hex never triggers a DNS lookup.
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("\"" + text + "\": \"" + host + "\" is not an IP address");
        }
    }

    /** Whether the address is IPv6. */
    public boolean isIpv6() {
        return address instanceof Inet6Address;
    }

    /** Whether the address is IPv4. */
    public boolean isIpv4() {
        return address instanceof Inet4Address;
    }

    /** Whether a port was given. */
    public boolean hasPort() {
        return port != 0;
    }

    /** The address in OVN's canonical text (IPv6 compressed, no brackets). */
    public String host() {
        String h = address.getHostAddress();
        if (isIpv6()) {
            return compress(h);
        }
        return h;
    }

    /** OVN's form: {@code IP:PORT}, {@code [IPv6]:PORT}, or the bare address. */
    @Override
    public String toString() {
        if (!hasPort()) {
            return host();
        }
        return (isIpv6() ? "[" + host() + "]" : host()) + ":" + port;
    }

    /** RFC 5952 style: longest run of zero groups as ::, lower case, no leading zeros. */
    private static String compress(String full) {
        String[] g = full.split(":");
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < g.length; ) {
            if (g[i].equals("0")) {
                int j = i;
                while (j < g.length && g[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLen && j - i > 1) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return String.join(":", g);
        }
        String left = String.join(":", java.util.Arrays.copyOfRange(g, 0, bestStart));
        String right = String.join(":", java.util.Arrays.copyOfRange(g, bestStart + bestLen, g.length));
        return left + "::" + right;
    }
}
