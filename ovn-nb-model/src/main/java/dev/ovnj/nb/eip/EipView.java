package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Answers where an external IP is realized in the Northbound database, from an
 * {@link OvsdbClient}'s cache. Each answer comes from one consistent read of the cache.
 *
 * <p>The methods are synchronous because they only read the local cache, which never waits on the
 * network; they reflect the cache as of the call (after a transaction of the same client has
 * completed, its effects included).
 */
public final class EipView {
    private final OvsdbClient client;

    /**
     * Creates a view over a client's cache.
     *
     * @param client a client monitoring at least Logical_Router, Logical_Router_Port, NAT,
     *     Load_Balancer and Logical_Switch
     */
    public EipView(OvsdbClient client) {
        this.client = client;
    }

    /**
     * Describes how an address is realized.
     *
     * @param ip an IPv4 or IPv6 literal
     * @return the port networks containing it, and the NAT rules, VIPs and claims using it
     * @throws IllegalArgumentException when {@code ip} is not an address literal
     */
    public EipRealization realization(String ip) {
        return realization(IpAddresses.parse(ip));
    }

    /**
     * Describes how an address is realized.
     *
     * @param ip the address
     * @return the port networks containing it, and the NAT rules, VIPs and claims using it
     */
    public EipRealization realization(InetAddress ip) {
        EipSnapshot nb = EipSnapshot.read(client.cache());
        List<PortNetwork> networks = nb.portNetworks(ip).stream().filter(pn -> pn.network().contains(ip)).toList();
        List<EipClaim> claims = nb.claims().stream().filter(c -> c.ip().equals(ip)).toList();
        return new EipRealization(ip, networks, nb.natUses(ip), nb.vipUses(ip), claims);
    }

    /**
     * Lists the claims an owner holds, on any port and of either family: what
     * {@link EipAllocator#allocate} returns for that owner comes from these.
     *
     * @param owner the owner named by the allocation requests
     * @return the owner's claims, lowest address first
     */
    public List<EipClaim> claimsOf(String owner) {
        return EipSnapshot.read(client.cache()).claims().stream().filter(c -> c.owner().equals(owner))
                .sorted(Comparator.comparing((EipClaim c) -> IpAddresses.bits(c.ip()))
                        .thenComparing(c -> IpAddresses.toInteger(c.ip())))
                .toList();
    }

    /**
     * Lists every address the database gives a role, which the allocator never hands out: router
     * port addresses, NAT external IPs, Load_Balancer VIPs and claims, on any port.
     *
     * @return the addresses, from one consistent read of the cache
     */
    public Set<InetAddress> usedAddresses() {
        return EipSnapshot.read(client.cache()).usedAddresses();
    }

    /**
     * Tells whether an address lies in a network of one of a router's ports: a router-attached VIP
     * that lies in no such network is not answered by OVN's ARP responder.
     *
     * @param routerName the Logical_Router's name
     * @param ip an IPv4 or IPv6 literal
     * @return true when some port network of the router contains the address
     * @throws IllegalArgumentException when there is no such router or {@code ip} is no literal
     */
    public boolean routableOn(String routerName, String ip) {
        InetAddress address = IpAddresses.parse(ip);
        RouterNetworks networks = RouterNetworks.read(client.cache());
        if (!networks.hasRouter(routerName)) {
            throw new IllegalArgumentException("no Logical_Router named " + routerName);
        }
        return networks.routes(routerName, address);
    }
}
