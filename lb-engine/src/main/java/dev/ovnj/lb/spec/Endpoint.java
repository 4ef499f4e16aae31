package dev.ovnj.lb.spec;

import dev.ovnj.nb.ip.IpAddresses;
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

    /**
     * Validates the port range.
     *
     * @param address the IP address
     * @param port 1..65535, or 0 when absent
     */
    public Endpoint {
        Objects.requireNonNull(address, "address");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
    }

    /**
     * An address with a port.
     *
     * @param address the IP address
     * @param port 1..65535
     * @return the endpoint
     * @throws IllegalArgumentException when the port is out of range
     */
    public static Endpoint of(InetAddress address, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
        return new Endpoint(address, port);
    }

    /**
     * An address literal with a port; never resolves a host name.
     *
     * @param ip e.g. {@code 10.0.0.1} or {@code fd00::1} (brackets allowed)
     * @param port 1..65535
     * @return the endpoint
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Endpoint of(String ip, int port) {
        return of(address(ip).address(), port);
    }

    /**
     * Parses an endpoint.
     *
     * @param text e.g. {@code 168.119.17.51:2379} or {@code [2a01:4f8::10]:443}
     * @return the endpoint
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Endpoint parse(String text) {
        long plain = plainIpv4(text);
        if (plain >= 0) {
            return new Endpoint(ipv4((int) (plain >>> 16)), (int) (plain & 0xffff));
        }
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

    /**
     * OVN's canonical text of an endpoint, as {@code parse(text).toString()} gives it; the text
     * itself when it is already canonical (the common case: no copy, no address object).
     *
     * @param text e.g. {@code 10.0.0.1:80} or {@code [2a01:4f8:0::10]:443}
     * @return e.g. {@code 10.0.0.1:80} or {@code [2a01:4f8::10]:443}
     * @throws IllegalArgumentException saying what is wrong
     */
    public static String normalize(String text) {
        return plainIpv4(text) >= 0 ? text : parse(text).toString();
    }

    /**
     * Whether text is {@code a.b.c.d:port} written canonically: what {@link #normalize} returns
     * unchanged, and {@link #parse} reads as an IPv4 endpoint with a port.
     */
    static boolean isPlainIpv4WithPort(String text) {
        long plain = plainIpv4(text);
        return plain >= 0 && (plain & 0xffff) != 0;
    }

    /**
     * Recognizes {@code a.b.c.d} or {@code a.b.c.d:port} written canonically (decimal octets
     * without leading zeros, a port in 1..65535 without leading zeros, nothing around them)
     * without a regular expression or an address lookup: the planner and admission see every
     * endpoint of every spec on each pass. Returns {@code address << 16 | port}, or -1 for any
     * other text, which the general parser then accepts or refuses with its reason.
     */
    private static long plainIpv4(String s) {
        if (s == null) {
            return -1;
        }
        int n = s.length();
        int i = 0;
        long address = 0;
        for (int octet = 0; octet < 4; octet++) {
            int start = i;
            int value = 0;
            while (i < n && i - start < 3 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                value = value * 10 + s.charAt(i) - '0';
                i++;
            }
            if (i == start || value > 255 || (i - start > 1 && s.charAt(start) == '0')) {
                return -1;
            }
            address = address << 8 | value;
            if (octet < 3) {
                if (i >= n || s.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        if (i == n) {
            return address << 16;
        }
        if (s.charAt(i) != ':') {
            return -1;
        }
        int start = ++i;
        int port = 0;
        while (i < n && i - start < 5 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            port = port * 10 + s.charAt(i) - '0';
            i++;
        }
        if (i != n || i == start || s.charAt(start) == '0' || port > 65535) {
            return -1;
        }
        return address << 16 | port;
    }

    private static InetAddress ipv4(int address) {
        byte[] b = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    /**
     * Parses a bare address: {@code 10.0.0.1}, {@code fd00::1} or {@code [fd00::1]}, never with a port.
     *
     * @param text the address
     * @return the endpoint, without port
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Endpoint address(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty address");
        }
        String s = text.trim();
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.contains(":")) {
            Endpoint e = new Endpoint(literal(text, s), 0);
            if (!e.isIpv6()) {
                throw new IllegalArgumentException("\"" + text + "\" is not an IPv6 address");
            }
            return e;
        }
        Endpoint e = parse(s);
        if (e.hasPort()) {
            throw new IllegalArgumentException("\"" + text + "\" must be an address without a port");
        }
        return e;
    }

    private static InetAddress literal(String text, String host) {
        try {
            return IpAddresses.parse(host);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + text + "\": \"" + host + "\" is not an " + (host.contains(":") ? "IPv6" : "IPv4") + " address");
        }
    }

    /**
     * Whether the address is IPv6.
     *
     * @return whether the address is IPv6
     */
    public boolean isIpv6() {
        return address instanceof Inet6Address;
    }

    /**
     * Whether the address is IPv4.
     *
     * @return whether the address is IPv4
     */
    public boolean isIpv4() {
        return address instanceof Inet4Address;
    }

    /**
     * Whether a port was given.
     *
     * @return whether a port was given
     */
    public boolean hasPort() {
        return port != 0;
    }

    /**
     * The address in OVN's canonical text (IPv6 compressed per RFC 5952, no brackets).
     *
     * @return the address in OVN's canonical text (IPv6 compressed per RFC 5952, no brackets)
     */
    public String host() {
        return IpAddresses.format(address);
    }

    /** OVN's form: {@code IP:PORT}, {@code [IPv6]:PORT}, or the bare address. */
    @Override
    public String toString() {
        if (!hasPort()) {
            return host();
        }
        return (isIpv6() ? "[" + host() + "]" : host()) + ":" + port;
    }
}
