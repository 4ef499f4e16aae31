package dev.ovnj.nb.ip;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Parsing, formatting and integer arithmetic of IPv4 and IPv6 address literals, as OVN writes them
 * in the Northbound database.
 */
public final class IpAddresses {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private IpAddresses() {
    }

    /**
     * Parses an IPv4 or IPv6 literal. Host names are refused rather than resolved, so parsing never
     * touches DNS.
     *
     * @param text e.g. {@code 168.119.17.51} or {@code fd00::1}
     * @return the address
     * @throws IllegalArgumentException when the text is not an address literal
     */
    public static InetAddress parse(String text) {
        boolean v4 = IPV4.matcher(text).matches();
        if (v4 && Arrays.stream(text.split("\\.")).anyMatch(octet -> Integer.parseInt(octet) > 255)) {
            throw new IllegalArgumentException("not an IP address: " + text);
        }
        if (!v4 && !IPV6.matcher(text).matches()) {
            throw new IllegalArgumentException("not an IP address: " + text);
        }
        try {
            // Only literals reach this point, and InetAddress does not look literals up.
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + text, e);
        }
    }

    /**
     * Formats an address: dotted decimal for IPv4, RFC 5952 for IPv6 (lower case, longest run of
     * zero groups compressed), so that equal addresses always give equal strings.
     *
     * @param address the address
     * @return the canonical text
     */
    public static String format(InetAddress address) {
        if (address instanceof Inet4Address) {
            return address.getHostAddress();
        }
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    /**
     * Tells the width of an address family.
     *
     * @param address an address
     * @return 32 for IPv4, 128 for IPv6
     */
    public static int bits(InetAddress address) {
        return address.getAddress().length * 8;
    }

    /**
     * Reads an address as an unsigned integer.
     *
     * @param address the address
     * @return its value
     */
    public static BigInteger toInteger(InetAddress address) {
        return new BigInteger(1, address.getAddress());
    }

    /**
     * Builds an address from an unsigned integer.
     *
     * @param value the value, between 0 and 2^bits - 1
     * @param bits 32 for IPv4, 128 for IPv6
     * @return the address
     * @throws IllegalArgumentException when the value does not fit
     */
    public static InetAddress fromInteger(BigInteger value, int bits) {
        if (value.signum() < 0 || value.bitLength() > bits) {
            throw new IllegalArgumentException(value + " does not fit in " + bits + " bits");
        }
        byte[] raw = value.toByteArray();
        byte[] out = new byte[bits / 8];
        int copy = Math.min(raw.length, out.length);
        System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
        try {
            return InetAddress.getByAddress(out);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address length " + out.length, e);
        }
    }

    /**
     * Tells whether two addresses belong to the same family.
     *
     * @param a an address
     * @param b another address
     * @return true when both are IPv4 or both are IPv6
     */
    public static boolean sameFamily(InetAddress a, InetAddress b) {
        return bits(a) == bits(b);
    }
}
