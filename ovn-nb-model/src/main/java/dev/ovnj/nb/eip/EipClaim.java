package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import java.net.InetAddress;
import java.util.Optional;

/**
 * An address handed out by {@link EipAllocator}, recorded in the {@code external_ids} of the
 * Logical_Router_Port whose network it was taken from, as the entry
 * {@code ovnj.eip.<address>=<owner>}, the address in canonical form ({@code ovnj.eip.168.119.17.49},
 * {@code ovnj.eip.fd00:10::2}). The record lives in the database, not in the allocator, so that
 * every allocator sees every other's claims and a claim survives restarts.
 *
 * @param ip the claimed address
 * @param owner who asked for it, as the allocation request named it
 * @param router the name of the router owning the port
 * @param port the name of the port holding the record
 */
public record EipClaim(InetAddress ip, String owner, String router, String port) {

    /** The prefix of the {@code external_ids} keys that record claims. */
    public static final String KEY_PREFIX = "ovnj.eip.";

    /**
     * Returns the {@code external_ids} key recording a claim of an address.
     *
     * @param ip the address
     * @return e.g. {@code ovnj.eip.168.119.17.49}
     */
    public static String key(InetAddress ip) {
        return KEY_PREFIX + IpAddresses.format(ip);
    }

    /**
     * Reads the address from an {@code external_ids} key.
     *
     * @param key any key
     * @return the claimed address, or empty for keys that record no claim
     */
    public static Optional<InetAddress> ipOf(String key) {
        if (!key.startsWith(KEY_PREFIX)) {
            return Optional.empty();
        }
        try {
            return Optional.of(IpAddresses.parse(key.substring(KEY_PREFIX.length())));
        } catch (IllegalArgumentException e) {
            // Someone else's key that merely shares the prefix; it claims nothing.
            return Optional.empty();
        }
    }
}
