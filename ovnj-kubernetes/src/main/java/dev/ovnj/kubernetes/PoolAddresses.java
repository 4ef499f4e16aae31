package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The addresses an {@link EipPool} gives out, resolved against its external port's networks:
 * ranges of host addresses, each inside the network the allocator takes addresses of its family
 * from (the port's first network of that family), none overlapping another.
 *
 * @param ranges the ranges, lowest first
 */
record PoolAddresses(List<IpRange> ranges) {
    PoolAddresses {
        ranges = List.copyOf(ranges);
    }

    /**
     * Resolves a pool's {@code spec.addresses} against its port's networks.
     *
     * @param entries ranges {@code a-b}, CIDRs or single addresses; empty for the whole networks
     * @param networks the port's networks as written in the database
     * @param port the port's name, for the messages
     * @return the addresses
     * @throws IllegalArgumentException naming the entry that does not parse or lies outside the networks
     */
    static PoolAddresses resolve(List<String> entries, List<String> networks, String port) {
        List<IpNetwork> allocated = allocatedNetworks(networks);
        List<IpRange> out = new ArrayList<>();
        if (entries.isEmpty()) {
            allocated.forEach(n -> out.add(n.hosts()));
        }
        for (String entry : entries) {
            IpRange range;
            try {
                range = parse(entry);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("spec.addresses: " + e.getMessage(), e);
            }
            IpNetwork network = allocated.stream().filter(n -> n.family() == IpFamily.of(range.first())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("spec.addresses: " + entry + " is outside the networks "
                            + networks + " of Logical_Router_Port " + port));
            IpRange hosts = network.hosts();
            if (!network.contains(range.first()) || !network.contains(range.last())) {
                throw new IllegalArgumentException("spec.addresses: " + entry + " is outside " + network.cidr()
                        + ", the network of Logical_Router_Port " + port + " that its addresses are given from"
                        + (networks.size() > 1 ? " (the port's first " + ServiceIpFamilies.name(network.family()) + " network)" : ""));
            }
            // The network's own and broadcast addresses are never given out: clip them off.
            BigInteger from = max(IpAddresses.toInteger(range.first()), IpAddresses.toInteger(hosts.first()));
            BigInteger to = min(IpAddresses.toInteger(range.last()), IpAddresses.toInteger(hosts.last()));
            if (from.compareTo(to) <= 0) {
                int bits = IpAddresses.bits(range.first());
                out.add(new IpRange(IpAddresses.fromInteger(from, bits), IpAddresses.fromInteger(to, bits)));
            }
        }
        out.sort(Comparator.comparing((IpRange r) -> IpAddresses.bits(r.first())).thenComparing(r -> IpAddresses.toInteger(r.first())));
        for (int i = 1; i < out.size(); i++) {
            if (overlap(out.get(i - 1), out.get(i))) {
                throw new IllegalArgumentException("spec.addresses: " + format(out.get(i - 1)) + " and " + format(out.get(i)) + " overlap");
            }
        }
        return new PoolAddresses(out);
    }

    /** The networks the allocator gives addresses from: the first parseable one of each family. */
    private static List<IpNetwork> allocatedNetworks(List<String> networks) {
        List<IpNetwork> out = new ArrayList<>();
        for (String written : networks) {
            try {
                IpNetwork n = IpNetwork.parse(written);
                if (out.stream().noneMatch(o -> o.family() == n.family())) {
                    out.add(n);
                }
            } catch (IllegalArgumentException malformed) {
                // Another client's malformed network offers no address.
            }
        }
        return out;
    }

    /** Parses {@code a-b}, a CIDR or a single address. */
    static IpRange parse(String entry) {
        String text = entry.trim();
        try {
            if (text.contains("/")) {
                IpNetwork n = IpNetwork.parse(text);
                return new IpRange(n.networkAddress(), n.lastAddress());
            }
            int dash = text.indexOf('-');
            if (dash > 0) {
                return new IpRange(IpAddresses.parse(text.substring(0, dash).trim()), IpAddresses.parse(text.substring(dash + 1).trim()));
            }
            return IpRange.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + entry + "\" is not a range a-b, a CIDR or an address ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Whether the pool holds an address. */
    boolean contains(InetAddress ip) {
        return ranges.stream().anyMatch(r -> r.contains(ip));
    }

    /** The first range of this pool that overlaps one of the other's, if any. */
    Optional<IpRange> overlapWith(PoolAddresses other) {
        return ranges.stream().filter(r -> other.ranges.stream().anyMatch(o -> overlap(r, o))).findFirst();
    }

    /**
     * What the allocator must not give out of the port's networks for the pool's addresses to be
     * the only candidates: each network's host addresses outside the pool's ranges.
     */
    List<IpRange> exclusions(List<String> networks) {
        List<IpRange> out = new ArrayList<>();
        for (IpNetwork n : allocatedNetworks(networks)) {
            IpRange hosts = n.hosts();
            int bits = IpAddresses.bits(hosts.first());
            BigInteger next = IpAddresses.toInteger(hosts.first());
            BigInteger end = IpAddresses.toInteger(hosts.last());
            for (IpRange r : ranges) {
                if (IpAddresses.bits(r.first()) != bits) {
                    continue;
                }
                BigInteger first = IpAddresses.toInteger(r.first());
                if (first.compareTo(next) > 0) {
                    out.add(new IpRange(IpAddresses.fromInteger(next, bits), IpAddresses.fromInteger(first.subtract(BigInteger.ONE), bits)));
                }
                next = max(next, IpAddresses.toInteger(r.last()).add(BigInteger.ONE));
            }
            if (next.compareTo(end) <= 0) {
                out.add(new IpRange(IpAddresses.fromInteger(next, bits), hosts.last()));
            }
        }
        return out;
    }

    /** How many addresses the pool has, at most {@link Long#MAX_VALUE}. */
    long size() {
        return saturated(ranges.stream().map(IpRange::size).reduce(BigInteger.ZERO, BigInteger::add));
    }

    /**
     * How many of the pool's addresses are reserved: the single ones it holds, and the overlap of
     * its ranges with the excluded ranges (merged first, so an address counts once).
     */
    long countReserved(ReservedAddresses reserved) {
        List<IpRange> excluded = new ArrayList<>(reserved.ranges().stream().map(ReservedAddresses.Excluded::range).toList());
        excluded.sort(Comparator.comparing((IpRange r) -> IpAddresses.bits(r.first())).thenComparing(r -> IpAddresses.toInteger(r.first())));
        List<IpRange> merged = new ArrayList<>();
        for (IpRange r : excluded) {
            IpRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && IpAddresses.sameFamily(last.first(), r.first())
                    && IpAddresses.toInteger(r.first()).compareTo(IpAddresses.toInteger(last.last()).add(BigInteger.ONE)) <= 0) {
                merged.set(merged.size() - 1, new IpRange(last.first(),
                        IpAddresses.toInteger(r.last()).compareTo(IpAddresses.toInteger(last.last())) > 0 ? r.last() : last.last()));
            } else {
                merged.add(r);
            }
        }
        BigInteger n = BigInteger.ZERO;
        for (IpRange mine : ranges) {
            for (IpRange e : merged) {
                if (overlap(mine, e)) {
                    BigInteger from = max(IpAddresses.toInteger(mine.first()), IpAddresses.toInteger(e.first()));
                    BigInteger to = min(IpAddresses.toInteger(mine.last()), IpAddresses.toInteger(e.last()));
                    n = n.add(to.subtract(from).add(BigInteger.ONE));
                }
            }
        }
        for (InetAddress ip : reserved.singles().keySet()) {
            if (contains(ip) && merged.stream().noneMatch(e -> e.contains(ip))) {
                n = n.add(BigInteger.ONE);
            }
        }
        return saturated(n);
    }

    /** How many of the given addresses the pool holds. */
    long count(Collection<InetAddress> addresses) {
        return addresses.stream().filter(this::contains).count();
    }

    @Override
    public String toString() {
        return String.join(", ", ranges.stream().map(PoolAddresses::format).toList());
    }

    /** A range as {@code spec.addresses} writes it. */
    static String format(IpRange r) {
        return r.first().equals(r.last()) ? IpAddresses.format(r.first()) : IpAddresses.format(r.first()) + "-" + IpAddresses.format(r.last());
    }

    private static boolean overlap(IpRange a, IpRange b) {
        return IpAddresses.sameFamily(a.first(), b.first()) && !(IpAddresses.toInteger(a.last()).compareTo(IpAddresses.toInteger(b.first())) < 0
                || IpAddresses.toInteger(b.last()).compareTo(IpAddresses.toInteger(a.first())) < 0);
    }

    private static long saturated(BigInteger n) {
        return n.bitLength() < 64 ? n.longValue() : Long.MAX_VALUE;
    }

    private static BigInteger max(BigInteger a, BigInteger b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static BigInteger min(BigInteger a, BigInteger b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
