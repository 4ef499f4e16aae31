package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpNetwork;

/**
 * A network of a Logical_Router_Port that contains an address.
 *
 * @param router the name of the router owning the port
 * @param port the port's name
 * @param network the {@code networks} entry, e.g. {@code 168.119.17.51/28}
 * @param ownAddress whether the address is the port's own address in that entry
 */
public record PortNetwork(String router, String port, IpNetwork network, boolean ownAddress) {
}
