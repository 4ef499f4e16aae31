package dev.ovnj.cli;

import dev.ovnj.lb.spec.Endpoint;
import java.net.InetAddress;
import java.util.Optional;

/**
 * A network in {@code Logical_Router_Port.networks} form, {@code 168.119.17.51/28} or
 * {@code fd00::1/64}: a router address with its prefix length.
 *
 * @param address the address as written (host bits may be set)
 * @param prefix the prefix length
 */
record Cidr(InetAddress address, int prefix) {

    /**
     * Parses a network.
     *
     * @param text {@code ADDRESS/PREFIX}
     * @return the network, or empty when the text is not one (the row is someone else's to fix)
     */
    static Optional<Cidr> parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0 || !text.substring(slash + 1).matches("\\d{1,3}")) {
            return Optional.empty();
        }
        String host = text.substring(0, slash);
        try {
            InetAddress a = Endpoint.parse(host.contains(":") ? "[" + host + "]" : host).address();
            int prefix = Integer.parseInt(text.substring(slash + 1));
            return prefix > a.getAddress().length * 8 ? Optional.empty() : Optional.of(new Cidr(a, prefix));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether an address lies in this network.
     *
     * @param ip the address
     * @return true when the first {@code prefix} bits are equal (never across address families)
     */
    boolean contains(InetAddress ip) {
        byte[] net = address.getAddress();
        byte[] other = ip.getAddress();
        if (net.length != other.length) {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((net[bit / 8] & mask) != (other[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
