package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What {@link EipAllocator} is asked for: a free address in one network of a router port.
 *
 * @param port the Logical_Router_Port whose network to allocate from, e.g. {@code lrp-shalb-dev-ext}
 * @param owner recorded with the claim, e.g. {@code kube-dc/shalb-dev/api-lb}
 * @param family which of the port's networks to use, when it has one of each
 * @param exclude addresses never to hand out, like Kube-OVN's {@code excludeIps}
 */
public record EipRequest(String port, String owner, IpFamily family, List<IpRange> exclude) {

    /**
     * Validates the components.
     *
     * @param port the port name
     * @param owner the owner
     * @param family the family
     * @param exclude excluded ranges
     */
    public EipRequest {
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(family, "family");
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("an EIP request needs a non-empty owner");
        }
        exclude = List.copyOf(exclude);
    }

    /**
     * Asks for an IPv4 address with nothing excluded.
     *
     * @param port the port name
     * @param owner the owner
     * @return the request
     */
    public static EipRequest of(String port, String owner) {
        return new EipRequest(port, owner, IpFamily.IPV4, List.of());
    }

    /**
     * Returns a copy for another address family.
     *
     * @param other the family
     * @return the request
     */
    public EipRequest withFamily(IpFamily other) {
        return new EipRequest(port, owner, other, exclude);
    }

    /**
     * Returns a copy that also excludes addresses.
     *
     * @param ranges single addresses or {@code a..b} ranges
     * @return the request
     * @throws IllegalArgumentException when a range does not parse
     */
    public EipRequest excluding(String... ranges) {
        List<IpRange> more = new ArrayList<>(exclude);
        Arrays.stream(ranges).map(IpRange::parse).forEach(more::add);
        return new EipRequest(port, owner, family, more);
    }
}
