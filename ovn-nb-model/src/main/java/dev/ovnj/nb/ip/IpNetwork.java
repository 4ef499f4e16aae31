package dev.ovnj.nb.ip;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.Objects;

/**
 * A network in the form a Logical_Router_Port's {@code networks} column holds it: the port's own
 * address plus the prefix length, e.g. {@code 168.119.17.51/28} is the port {@code .51} in the
 * network {@code 168.119.17.48/28}.
 *
 * @param address the address before the slash (for a router port, its own address)
 * @param prefixLength the prefix length, 0 to 32 for IPv4 and 0 to 128 for IPv6
 */
public record IpNetwork(InetAddress address, int prefixLength) {

    /**
     * Validates the components.
     *
     * @param address the address
     * @param prefixLength the prefix length
     */
    public IpNetwork {
        Objects.requireNonNull(address, "address");
        if (prefixLength < 0 || prefixLength > IpAddresses.bits(address)) {
            throw new IllegalArgumentException("prefix length " + prefixLength + " is out of range for " + IpAddresses.format(address));
        }
    }

    /**
     * Parses {@code address/prefix}.
     *
     * @param cidr e.g. {@code 168.119.17.51/28} or {@code fd00:10::1/120}
     * @return the network
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static IpNetwork parse(String cidr) {
        int slash = cidr.indexOf('/');
        if (slash < 0 || slash != cidr.lastIndexOf('/')) {
            throw new IllegalArgumentException("not an address/prefix network: " + cidr);
        }
        String prefix = cidr.substring(slash + 1);
        if (!prefix.matches("\\d{1,3}")) {
            throw new IllegalArgumentException("bad prefix length in " + cidr);
        }
        return new IpNetwork(IpAddresses.parse(cidr.substring(0, slash)), Integer.parseInt(prefix));
    }

    /**
     * Returns the address family.
     *
     * @return IPv4 or IPv6
     */
    public IpFamily family() {
        return IpFamily.of(address);
    }

    /**
     * Returns the first address of the network (all host bits zero).
     *
     * @return e.g. {@code 168.119.17.48} for {@code 168.119.17.51/28}
     */
    public InetAddress networkAddress() {
        return IpAddresses.fromInteger(first(), bits());
    }

    /**
     * Returns the last address of the network (all host bits one), the IPv4 broadcast address.
     *
     * @return e.g. {@code 168.119.17.63} for {@code 168.119.17.51/28}
     */
    public InetAddress lastAddress() {
        return IpAddresses.fromInteger(last(), bits());
    }

    /**
     * Tells whether an address lies in the network.
     *
     * @param ip the address
     * @return true when it has the same family and the same prefix bits
     */
    public boolean contains(InetAddress ip) {
        if (!IpAddresses.sameFamily(ip, address)) {
            return false;
        }
        // The prefix bits compared byte by byte: the engine asks this for every VIP on every pass.
        byte[] x = ip.getAddress();
        byte[] y = address.getAddress();
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (x[i] != y[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (x[full] & mask) == (y[full] & mask);
    }

    /**
     * Returns the range of addresses that may be handed to hosts. IPv4 networks of /30 and wider
     * lose their network and broadcast addresses; IPv6 networks of /126 and wider lose the
     * network address, the Subnet-Router anycast address of RFC 4291. Point-to-point /31 and /127
     * (RFC 3021, RFC 6164) and single-address networks keep every address.
     *
     * @return the assignable addresses
     */
    public IpRange hosts() {
        BigInteger from = first();
        BigInteger to = last();
        int hostBits = bits() - prefixLength;
        if (hostBits >= 2) {
            from = from.add(BigInteger.ONE);
            if (family() == IpFamily.IPV4) {
                to = to.subtract(BigInteger.ONE);
            }
        }
        return new IpRange(IpAddresses.fromInteger(from, bits()), IpAddresses.fromInteger(to, bits()));
    }

    /**
     * Returns the network in canonical form, with the host bits cleared.
     *
     * @return e.g. {@code 168.119.17.48/28}
     */
    public String cidr() {
        return IpAddresses.format(networkAddress()) + "/" + prefixLength;
    }

    /**
     * Returns the network as the Northbound writes it, the address before the slash kept.
     *
     * @return e.g. {@code 168.119.17.51/28}
     */
    @Override
    public String toString() {
        return IpAddresses.format(address) + "/" + prefixLength;
    }

    private int bits() {
        return IpAddresses.bits(address);
    }

    private BigInteger first() {
        BigInteger hostMask = BigInteger.ONE.shiftLeft(bits() - prefixLength).subtract(BigInteger.ONE);
        return IpAddresses.toInteger(address).andNot(hostMask);
    }

    private BigInteger last() {
        BigInteger hostMask = BigInteger.ONE.shiftLeft(bits() - prefixLength).subtract(BigInteger.ONE);
        return IpAddresses.toInteger(address).or(hostMask);
    }
}
