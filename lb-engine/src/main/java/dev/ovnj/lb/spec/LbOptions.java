package dev.ovnj.lb.spec;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Load-balancer options, as OVN's {@code Load_Balancer.options} and {@code selection_fields}
 * columns hold them (ovn-nb(5)).
 *
 * @param affinityTimeout session affinity in seconds, 1..65535 ({@code options:affinity_timeout})
 * @param reject reply with a reset/unreachable when there are no backends ({@code options:reject})
 * @param skipSnat skip the router's SNAT for this LB's traffic ({@code options:skip_snat}); only on
 *     gateway routers ({@code options:chassis}): on a distributed router with a gateway port OVN would
 *     not un-DNAT the replies, so such a spec is refused as INVALID
 * @param hairpinSnatIp source IP for hairpinned traffic ({@code options:hairpin_snat_ip})
 * @param neighborResponder ARP/ND responder for VIPs: {@code reachable}, {@code all} or {@code none}
 *     ({@code options:neighbor_responder})
 * @param selectionFields header fields hashed to choose a backend: eth_src, eth_dst, ip_src,
 *     ip_dst, tp_src, tp_dst ({@code selection_fields})
 * @param ctFlush flush a removed backend's conntrack entries ({@code options:ct_flush}, OVN 23.06+,
 *     which stopped flushing by default)
 * @param useStatelessNat stateless NAT for the load balancer's traffic on distributed gateway
 *     routers with several gateway ports ({@code options:use_stateless_nat}, OVN 25.03+)
 * @param distributed balance on every chassis to its local backends only ({@code options:distributed},
 *     OVN 26.03+; needs {@code ip_port_mappings}, so every VIP needs a health check here)
 */
public record LbOptions(OptionalInt affinityTimeout, boolean reject, boolean skipSnat, Optional<String> hairpinSnatIp,
                        Optional<String> neighborResponder, Set<String> selectionFields, boolean ctFlush,
                        boolean useStatelessNat, boolean distributed) {

    /** No options: OVN's defaults. */
    public static final LbOptions DEFAULTS = new LbOptions(OptionalInt.empty(), false, false, Optional.empty(),
            Optional.empty(), Set.of(), false, false, false);

    /**
     * Copies the selection fields.
     *
     * @param affinityTimeout session affinity in seconds, 1..65535 ({@code options:affinity_timeout})
     * @param hairpinSnatIp source IP for hairpinned traffic ({@code options:hairpin_snat_ip})
     * @param neighborResponder ARP/ND responder for VIPs: {@code reachable}, {@code all} or {@code none} ({@code options:neighbor_responder})
     * @param reject reply with a reset/unreachable when there are no backends ({@code options:reject})
     * @param selectionFields header fields hashed to choose a backend: eth_src, eth_dst, ip_src, ip_dst, tp_src, tp_dst ({@code selection_fields})
     * @param skipSnat skip the router's SNAT for this LB's traffic ({@code options:skip_snat})
     * @param ctFlush flush a removed backend's conntrack entries ({@code options:ct_flush})
     * @param useStatelessNat stateless NAT on routers with several gateway ports ({@code options:use_stateless_nat})
     * @param distributed balance to chassis-local backends only ({@code options:distributed})
     */
    public LbOptions {
        selectionFields = Set.copyOf(selectionFields);
    }

    /**
     * Returns a copy with a session affinity timeout.
     *
     * @param seconds 1..65535
     * @return the new options
     */
    public LbOptions withAffinityTimeout(int seconds) {
        return new LbOptions(OptionalInt.of(seconds), reject, skipSnat, hairpinSnatIp, neighborResponder, selectionFields, ctFlush, useStatelessNat, distributed);
    }

    /**
     * Returns a copy with {@code reject} set.
     *
     * @param value whether to reject when there are no backends
     * @return the new options
     */
    public LbOptions withReject(boolean value) {
        return new LbOptions(affinityTimeout, value, skipSnat, hairpinSnatIp, neighborResponder, selectionFields, ctFlush, useStatelessNat, distributed);
    }

    /**
     * Returns a copy with {@code skip_snat} set.
     *
     * @param value whether to skip SNAT
     * @return the new options
     */
    public LbOptions withSkipSnat(boolean value) {
        return new LbOptions(affinityTimeout, reject, value, hairpinSnatIp, neighborResponder, selectionFields, ctFlush, useStatelessNat, distributed);
    }

    /**
     * Returns a copy with a hairpin SNAT IP.
     *
     * @param ip the source IP for hairpinned traffic
     * @return the new options
     */
    public LbOptions withHairpinSnatIp(String ip) {
        return new LbOptions(affinityTimeout, reject, skipSnat, Optional.of(ip), neighborResponder, selectionFields, ctFlush, useStatelessNat, distributed);
    }

    /**
     * Returns a copy with a neighbor responder mode.
     *
     * @param mode reachable, all or none
     * @return the new options
     */
    public LbOptions withNeighborResponder(String mode) {
        return new LbOptions(affinityTimeout, reject, skipSnat, hairpinSnatIp, Optional.of(mode), selectionFields, ctFlush, useStatelessNat, distributed);
    }

    /**
     * Returns a copy with selection fields.
     *
     * @param fields e.g. ip_src, ip_dst
     * @return the new options
     */
    public LbOptions withSelectionFields(Set<String> fields) {
        return new LbOptions(affinityTimeout, reject, skipSnat, hairpinSnatIp, neighborResponder, fields, ctFlush, useStatelessNat,
                distributed);
    }

    /**
     * Returns a copy with {@code ct_flush} set.
     *
     * @param value whether OVN flushes a removed backend's connections
     * @return the new options
     */
    public LbOptions withCtFlush(boolean value) {
        return new LbOptions(affinityTimeout, reject, skipSnat, hairpinSnatIp, neighborResponder, selectionFields, value,
                useStatelessNat, distributed);
    }

    /**
     * Returns a copy with {@code use_stateless_nat} set.
     *
     * @param value whether to use stateless NAT
     * @return the new options
     */
    public LbOptions withUseStatelessNat(boolean value) {
        return new LbOptions(affinityTimeout, reject, skipSnat, hairpinSnatIp, neighborResponder, selectionFields, ctFlush,
                value, distributed);
    }

    /**
     * Returns a copy with {@code distributed} set.
     *
     * @param value whether to balance to chassis-local backends only
     * @return the new options
     */
    public LbOptions withDistributed(boolean value) {
        return new LbOptions(affinityTimeout, reject, skipSnat, hairpinSnatIp, neighborResponder, selectionFields, ctFlush,
                useStatelessNat, value);
    }
}
