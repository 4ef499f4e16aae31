package dev.ovnj.nb.ip;

import java.net.InetAddress;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A key of Load_Balancer {@code vips}: {@code IP:port}, {@code [IPv6]:port}, or a bare address
 * (bracketed or not for IPv6) that balances every port.
 *
 * @param ip the virtual IP
 * @param port the port, empty for a bare address
 */
public record VipAddress(InetAddress ip, OptionalInt port) {

    /**
     * Validates the components.
     *
     * @param ip the virtual IP
     * @param port the port, 1 to 65535, or empty
     */
    public VipAddress {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(port, "port");
        if (port.isPresent() && (port.getAsInt() < 1 || port.getAsInt() > 65535)) {
            throw new IllegalArgumentException("VIP port out of range: " + port.getAsInt());
        }
    }

    /**
     * Parses a {@code vips} key.
     *
     * @param key e.g. {@code 1.2.3.4:80}, {@code [fd00::1]:80}, {@code 1.2.3.4} or {@code fd00::1}
     * @return the key
     * @throws IllegalArgumentException when the key has none of these forms
     */
    public static VipAddress parse(String key) {
        if (key.startsWith("[")) {
            int close = key.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed [ in VIP " + key);
            }
            InetAddress ip = IpAddresses.parse(key.substring(1, close));
            String rest = key.substring(close + 1);
            if (rest.isEmpty()) {
                return new VipAddress(ip, OptionalInt.empty());
            }
            if (!rest.startsWith(":")) {
                throw new IllegalArgumentException("expected :port after ] in VIP " + key);
            }
            return new VipAddress(ip, OptionalInt.of(port(rest.substring(1), key)));
        }
        int colon = key.indexOf(':');
        if (colon >= 0 && colon == key.lastIndexOf(':')) {
            return new VipAddress(IpAddresses.parse(key.substring(0, colon)), OptionalInt.of(port(key.substring(colon + 1), key)));
        }
        // No colon is a bare IPv4 address; several colons without brackets are a bare IPv6 one.
        return new VipAddress(IpAddresses.parse(key), OptionalInt.empty());
    }

    private static int port(String text, String key) {
        if (!text.matches("\\d{1,5}")) {
            throw new IllegalArgumentException("bad port in VIP " + key);
        }
        return Integer.parseInt(text);
    }

    /**
     * Returns the key as OVN writes it.
     *
     * @return e.g. {@code 1.2.3.4:80} or {@code [fd00::1]:80}
     */
    @Override
    public String toString() {
        String host = IpFamily.of(ip) == IpFamily.IPV6 && port.isPresent() ? "[" + IpAddresses.format(ip) + "]" : IpAddresses.format(ip);
        return port.isPresent() ? host + ":" + port.getAsInt() : host;
    }
}
