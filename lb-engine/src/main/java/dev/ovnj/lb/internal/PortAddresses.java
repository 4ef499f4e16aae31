package dev.ovnj.lb.internal;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.ovsdb.data.Row;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the addresses out of a Logical_Switch_Port's {@code addresses} and
 * {@code dynamic_addresses} entries ({@code "MAC IP [IP...]"}, {@code router}, {@code dynamic},
 * {@code unknown}), and the networks of switches and router ports, as health checks need them
 * to find a backend's port and check a source address. Addresses are compared in canonical text;
 * OVN keeps them as they were written.
 */
public final class PortAddresses {
    private static final Pattern MAC = Pattern.compile("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}");

    private PortAddresses() {
    }

    /**
     * Which of {@code hosts} (canonical text) a port holds. Cheap, as it runs over every port: a
     * token equal to a host matches at once; only an IPv6-looking token whose first group matches
     * a wanted IPv6 host is parsed (OVN keeps addresses as they were written, not canonical).
     *
     * @param v6Heads {@link #v6Heads} of {@code hosts}, computed once for many ports
     */
    /** The first groups of the IPv6 hosts, to tell cheaply which tokens are worth parsing. */
    static Set<String> v6Heads(Set<String> hosts) {
        Set<String> v6Heads = new HashSet<>();
        for (String h : hosts) {
            if (h.indexOf(':') >= 0) {
                v6Heads.add(h.substring(0, h.indexOf(':')));
            }
        }
        return v6Heads;
    }

    static Set<String> held(Row port, Set<String> hosts, Set<String> v6Heads) {
        Set<String> out = Set.of();
        for (Object e : entries(port)) {
            String entry = String.valueOf(e);
            if (v6Heads.isEmpty() && hosts.stream().noneMatch(entry::contains)) {
                continue;
            }
            for (String token : tokens(entry)) {
                if (hosts.contains(token)) {
                    out = added(out, token);
                    continue;
                }
                int colon = token.indexOf(':');
                if (colon < 0 || v6Heads.isEmpty() || MAC.matcher(token).matches()
                        || !v6Heads.contains(token.substring(0, colon).toLowerCase(Locale.ROOT).replaceFirst("^0+(?=.)", ""))) {
                    continue;
                }
                try {
                    int slash = token.indexOf('/');
                    String canonical = IpAddresses.format(IpAddresses.parse(slash < 0 ? token : token.substring(0, slash)));
                    if (hosts.contains(canonical)) {
                        out = added(out, canonical);
                    }
                } catch (IllegalArgumentException ex) {
                    // Not an address.
                }
            }
        }
        return out;
    }

    private static Set<String> added(Set<String> set, String item) {
        Set<String> out = new HashSet<>(set);
        out.add(item);
        return out;
    }

    /** Whitespace-separated tokens, without a regular expression (this runs over every port). */
    private static List<String> tokens(String entry) {
        List<String> out = new ArrayList<>(4);
        int i = 0;
        int n = entry.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(entry.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(entry.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(entry.substring(start, i));
            }
        }
        return out;
    }

    private static List<Object> entries(Row port) {
        Object addresses = port.get("addresses");
        Object dyn = port.get("dynamic_addresses");
        boolean noDynamic = dyn == null || dyn instanceof Set<?> d && d.isEmpty();
        if (noDynamic && addresses instanceof Set<?> s) {
            return List.copyOf(s);
        }
        List<Object> entries = new ArrayList<>();
        if (addresses instanceof Set<?> s) {
            entries.addAll(s);
        }
        if (dyn instanceof Set<?> s) {
            entries.addAll(s);
        } else if (dyn instanceof String s) {
            entries.add(s);
        }
        return entries;
    }

    /**
     * The IP addresses in a logical switch port's {@code addresses} and {@code dynamic_addresses}
     * (MACs, {@code router}, {@code dynamic}, {@code unknown} skipped; a prefix length dropped).
     *
     * @param port a Logical_Switch_Port row
     * @return the addresses in canonical text
     */
    public static List<String> of(Row port) {
        List<String> out = new ArrayList<>();
        for (Object e : entries(port)) {
            for (String token : String.valueOf(e).trim().split("\\s+")) {
                if (!MAC.matcher(token).matches() && (token.indexOf('.') > 0 || token.indexOf(':') >= 0)) {
                    try {
                        int slash = token.indexOf('/');
                        out.add(IpAddresses.format(IpAddresses.parse(slash < 0 ? token : token.substring(0, slash))));
                    } catch (IllegalArgumentException ex) {
                        // Not an address.
                    }
                }
            }
        }
        return out;
    }

    /**
     * A network as a switch's {@code other_config:subnet} / {@code ipv6_prefix} or a router port's
     * {@code networks} entry writes it.
     *
     * @param text e.g. {@code 10.0.0.0/24}, or {@code fd00::} for an IPv6 prefix
     * @param defaultPrefix the prefix length of a bare address, or -1 when a bare address is no network
     * @return the network, or empty when the text is none (northd ignores such entries too)
     */
    static Optional<IpNetwork> network(String text, int defaultPrefix) {
        try {
            String t = text.trim();
            if (t.indexOf('/') < 0) {
                if (defaultPrefix < 0) {
                    return Optional.empty();
                }
                t = t + "/" + defaultPrefix;
            }
            return Optional.of(IpNetwork.parse(t));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether an address is a router port's own address in one of its {@code networks}.
     *
     * @param lrp a Logical_Router_Port row
     * @param ip the address
     * @return whether an entry's address (before the slash) is {@code ip}
     */
    static boolean isRouterPortAddress(Row lrp, InetAddress ip) {
        if (lrp.get("networks") instanceof Set<?> nets) {
            for (Object n : nets) {
                String s = String.valueOf(n);
                int slash = s.indexOf('/');
                try {
                    if (IpAddresses.parse(slash < 0 ? s : s.substring(0, slash)).equals(ip)) {
                        return true;
                    }
                } catch (IllegalArgumentException e) {
                    // Not an address; northd ignores it too.
                }
            }
        }
        return false;
    }
}
