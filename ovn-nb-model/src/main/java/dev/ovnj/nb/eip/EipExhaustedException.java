package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpNetwork;

/** Every assignable address of a port's network is used, claimed or excluded. */
public final class EipExhaustedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param network the exhausted network
     * @param port the port it belongs to
     */
    public EipExhaustedException(IpNetwork network, String port) {
        super("no free address left in " + network.cidr() + " of Logical_Router_Port " + port
                + " (every host address is a port address, NAT external IP, VIP, claim or excluded)");
    }
}
