package dev.ovnj.nb.ip;

import java.net.InetAddress;

/** An IP address family, for choosing among a dual-stack port's networks. */
public enum IpFamily {
    /** IPv4. */
    IPV4,
    /** IPv6. */
    IPV6;

    /**
     * Returns the family of an address.
     *
     * @param address the address
     * @return its family
     */
    public static IpFamily of(InetAddress address) {
        return IpAddresses.bits(address) == 32 ? IPV4 : IPV6;
    }
}
