package dev.ovnj.nb.eip;

import java.net.InetAddress;
import java.util.List;

/**
 * How the Northbound database realizes one external address: the router port networks it lies in,
 * the NAT rules and load balancer VIPs that use it, and the allocator's claims on it.
 *
 * @param ip the address
 * @param portNetworks router port networks containing it
 * @param nats NAT rules with it as {@code external_ip}
 * @param vips load balancer VIPs on it, any port
 * @param claims allocator claims of it
 */
public record EipRealization(InetAddress ip, List<PortNetwork> portNetworks, List<NatUse> nats, List<VipUse> vips,
        List<EipClaim> claims) {

    /**
     * Freezes the lists.
     *
     * @param ip the address
     * @param portNetworks port networks
     * @param nats NAT uses
     * @param vips VIP uses
     * @param claims claims
     */
    public EipRealization {
        portNetworks = List.copyOf(portNetworks);
        nats = List.copyOf(nats);
        vips = List.copyOf(vips);
        claims = List.copyOf(claims);
    }

    /**
     * Tells whether the address is a router port's own address.
     *
     * @return true when some port network was written with this address before the slash
     */
    public boolean isPortAddress() {
        return portNetworks.stream().anyMatch(PortNetwork::ownAddress);
    }

    /**
     * Tells whether nothing in the database uses the address: no port owns it, and no NAT rule,
     * VIP or claim mentions it. Lying inside a port network is no use.
     *
     * @return true when the address is unused
     */
    public boolean isUnused() {
        return !isPortAddress() && nats.isEmpty() && vips.isEmpty() && claims.isEmpty();
    }
}
