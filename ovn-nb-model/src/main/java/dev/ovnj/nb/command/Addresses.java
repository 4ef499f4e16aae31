package dev.ovnj.nb.command;

import dev.ovnj.nb.ip.IpAddresses;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Address forms as ovn-nbctl parses and normalizes them: MACs, IPv4/IPv6 addresses and
 * prefixes ({@code 10.0.0.7/24} normalizes to {@code 10.0.0.0/24}, a host prefix to the bare
 * address), and a port's {@code addresses} entry.
 */
final class Addresses {
    private static final Pattern MAC = Pattern.compile("[0-9a-fA-F]{1,2}(:[0-9a-fA-F]{1,2}){5}");
    private static final Pattern MAC_PREFIX = Pattern.compile("^[0-9a-fA-F]{1,2}(:[0-9a-fA-F]{1,2}){5}.*", Pattern.DOTALL);
    private static final Pattern DOTTED = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private Addresses() {
    }

    static boolean isMac(String s) {
        return MAC.matcher(s).matches();
    }

    /** Whether the text starts with a MAC, as ovn-nbctl's scan of an addresses entry checks. */
    static boolean startsWithMac(String s) {
        return MAC_PREFIX.matcher(s).matches();
    }

    /** An IPv4 literal (dotted quad only), or null. */
    static InetAddress ipv4(String s) {
        if (!DOTTED.matcher(s).matches()) {
            return null;
        }
        for (String part : s.split("\\.")) {
            if (Integer.parseInt(part) > 255) {
                return null;
            }
        }
        try {
            return IpAddresses.parse(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** An IPv6 literal, or null. */
    static InetAddress ipv6(String s) {
        if (!s.contains(":") || s.contains("/") || s.contains("[") || s.contains("%")) {
            return null;
        }
        try {
            InetAddress a = IpAddresses.parse(s);
            return a instanceof Inet4Address ? null : a;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The normalized IPv4 prefix ({@code a.b.c.d[/n]}, a mask allowed), or null. */
    static String ipv4Prefix(String s) {
        int slash = s.indexOf('/');
        InetAddress a = ipv4(slash < 0 ? s : s.substring(0, slash));
        if (a == null) {
            return null;
        }
        int plen = 32;
        if (slash >= 0) {
            String len = s.substring(slash + 1);
            if (len.matches("\\d{1,2}")) {
                plen = Integer.parseInt(len);
                if (plen > 32) {
                    return null;
                }
            } else {
                InetAddress mask = ipv4(len);
                if (mask == null) {
                    return null;
                }
                plen = maskLength(IpAddresses.toInteger(mask), 32);
                if (plen < 0) {
                    return null;
                }
            }
        }
        return normalize(a, plen, 32);
    }

    /** The normalized IPv6 prefix, or null. */
    static String ipv6Prefix(String s) {
        int slash = s.indexOf('/');
        InetAddress a = ipv6(slash < 0 ? s : s.substring(0, slash));
        if (a == null) {
            return null;
        }
        int plen = 128;
        if (slash >= 0) {
            String len = s.substring(slash + 1);
            if (len.matches("\\d{1,3}")) {
                plen = Integer.parseInt(len);
                if (plen > 128) {
                    return null;
                }
            } else {
                InetAddress mask = ipv6(len);
                if (mask == null) {
                    return null;
                }
                plen = maskLength(IpAddresses.toInteger(mask), 128);
                if (plen < 0) {
                    return null;
                }
            }
        }
        return normalize(a, plen, 128);
    }

    static String prefix(String s) {
        String p = ipv4Prefix(s);
        return p != null ? p : ipv6Prefix(s);
    }

    static String ipv4Address(String s) {
        InetAddress a = ipv4(s);
        return a == null ? null : IpAddresses.format(a);
    }

    static String ipv6Address(String s) {
        InetAddress a = ipv6(s);
        return a == null ? null : IpAddresses.format(a);
    }

    private static int maskLength(BigInteger mask, int bits) {
        int plen = 0;
        for (int i = bits - 1; i >= 0 && mask.testBit(i); i--) {
            plen++;
        }
        BigInteger expected = plen == 0 ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(plen).subtract(BigInteger.ONE).shiftLeft(bits - plen);
        return mask.equals(expected) ? plen : -1;
    }

    private static String normalize(InetAddress a, int plen, int bits) {
        BigInteger v = IpAddresses.toInteger(a);
        BigInteger mask = plen == 0 ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(plen).subtract(BigInteger.ONE).shiftLeft(bits - plen);
        String network = IpAddresses.format(IpAddresses.fromInteger(v.and(mask), bits));
        return plen == bits ? network : network + "/" + plen;
    }

    /** The IP addresses of a port {@code addresses} entry ({@code MAC [IP[/plen]]...}), or null when it is not one. */
    static List<InetAddress> lspIps(String entry) {
        String[] tokens = entry.trim().split("\\s+");
        if (tokens.length == 0 || !isMac(tokens[0])) {
            return null;
        }
        List<InetAddress> ips = new ArrayList<>();
        for (int i = 1; i < tokens.length; i++) {
            String t = tokens[i];
            int slash = t.indexOf('/');
            String ip = slash < 0 ? t : t.substring(0, slash);
            InetAddress a = ipv4(ip);
            if (a == null) {
                a = ipv6(ip);
            }
            if (a == null || (slash >= 0 && prefix(t) == null)) {
                return null;
            }
            ips.add(a);
        }
        return ips;
    }

    /** Whether {@code ip} lies in one of a router port's networks. */
    static boolean inNetworks(Iterable<?> networks, String ip) {
        InetAddress a = ipv4(ip);
        if (a == null) {
            a = ipv6(ip);
        }
        if (a == null) {
            return false;
        }
        for (Object n : networks) {
            String net = n.toString();
            int slash = net.indexOf('/');
            if (slash < 0) {
                continue;
            }
            InetAddress host = a instanceof Inet4Address ? ipv4(net.substring(0, slash)) : ipv6(net.substring(0, slash));
            if (host == null) {
                continue;
            }
            int bits = a instanceof Inet4Address ? 32 : 128;
            String p = a instanceof Inet4Address ? ipv4Prefix(net) : ipv6Prefix(net);
            if (p == null) {
                continue;
            }
            int plen = p.contains("/") ? Integer.parseInt(p.substring(p.indexOf('/') + 1)) : bits;
            if (normalize(a, plen, bits).equals(normalize(host, plen, bits))) {
                return true;
            }
        }
        return false;
    }
}
