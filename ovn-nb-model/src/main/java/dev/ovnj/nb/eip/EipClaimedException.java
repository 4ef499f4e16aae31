package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import java.net.InetAddress;

/**
 * A specific address was asked for ({@link EipAllocator#claim}) and someone else holds it: another
 * owner's claim, or the router itself (a port address or a NAT rule's external IP). Nothing was
 * claimed; the holder keeps it.
 */
public final class EipClaimedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The holder named when the router itself uses the address. */
    public static final String ROUTER = "the router (port address or NAT)";

    private final String holder;

    /**
     * Creates the exception.
     *
     * @param ip the address asked for
     * @param holder the owner of the claim holding it, or {@link #ROUTER}
     */
    public EipClaimedException(InetAddress ip, String holder) {
        super(IpAddresses.format(ip) + " is " + (ROUTER.equals(holder) ? "in use by " : "claimed by ") + holder);
        this.holder = holder;
    }

    /**
     * Who holds the address.
     *
     * @return the claim's owner, or {@link #ROUTER}
     */
    public String holder() {
        return holder;
    }
}
