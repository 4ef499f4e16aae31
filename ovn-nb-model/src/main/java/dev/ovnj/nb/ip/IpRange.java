package dev.ovnj.nb.ip;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.Objects;

/**
 * An inclusive range of addresses of one family, written like Kube-OVN's {@code excludeIps}:
 * a single address {@code 168.119.17.58} or a range {@code 168.119.17.56..168.119.17.58}.
 *
 * @param first the lowest address
 * @param last the highest address, not below {@code first}
 */
public record IpRange(InetAddress first, InetAddress last) {

    /**
     * Validates the components.
     *
     * @param first the lowest address
     * @param last the highest address
     */
    public IpRange {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(last, "last");
        if (!IpAddresses.sameFamily(first, last)) {
            throw new IllegalArgumentException("range mixes IPv4 and IPv6: " + IpAddresses.format(first) + ".." + IpAddresses.format(last));
        }
        if (IpAddresses.toInteger(first).compareTo(IpAddresses.toInteger(last)) > 0) {
            throw new IllegalArgumentException("range ends before it starts: " + IpAddresses.format(first) + ".." + IpAddresses.format(last));
        }
    }

    /**
     * Parses {@code a..b} or a single address {@code a}.
     *
     * @param text the range
     * @return the range
     * @throws IllegalArgumentException when the text is neither
     */
    public static IpRange parse(String text) {
        int dots = text.indexOf("..");
        if (dots < 0) {
            InetAddress single = IpAddresses.parse(text.trim());
            return new IpRange(single, single);
        }
        return new IpRange(IpAddresses.parse(text.substring(0, dots).trim()), IpAddresses.parse(text.substring(dots + 2).trim()));
    }

    /**
     * Tells whether an address lies in the range.
     *
     * @param ip the address
     * @return true when it has the range's family and lies between the ends
     */
    public boolean contains(InetAddress ip) {
        if (!IpAddresses.sameFamily(ip, first)) {
            return false;
        }
        BigInteger value = IpAddresses.toInteger(ip);
        return value.compareTo(IpAddresses.toInteger(first)) >= 0 && value.compareTo(IpAddresses.toInteger(last)) <= 0;
    }

    /**
     * Returns the number of addresses in the range.
     *
     * @return {@code last - first + 1}
     */
    public BigInteger size() {
        return IpAddresses.toInteger(last).subtract(IpAddresses.toInteger(first)).add(BigInteger.ONE);
    }

    /**
     * Returns the range as it is parsed.
     *
     * @return {@code a..b}, or {@code a} for a single address
     */
    @Override
    public String toString() {
        return first.equals(last) ? IpAddresses.format(first) : IpAddresses.format(first) + ".." + IpAddresses.format(last);
    }
}
