package dev.ovnj.kubernetes;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.nb.ip.IpAddresses;
import io.fabric8.kubernetes.api.model.Service;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a Service asks for, read once per reconciliation from its annotations and spec: where it
 * wants to land, which addresses, with whom it shares them, its health check and adoption. Nothing
 * here is granted yet: {@link Tenancy} decides what of it the administrator allows.
 *
 * @param namespace the Service's namespace
 * @param name its name
 * @param specName the engine spec's name, {@code namespace/name}
 * @param labels its labels (for the pools' {@code serviceSelector})
 * @param claimOwner who its addresses are claimed for: its sharing group, or itself
 * @param shareKey its {@value ServiceAnnotations#SHARED_IP} key, if any
 * @param pool the pool it names ({@value EipPools#ANNOTATION}), if any
 * @param router the router it names ({@value ServiceAnnotations#ROUTER}), if any
 * @param logicalSwitch the switch it names ({@value ServiceAnnotations#SWITCH}; {@code none} drops it), if any
 * @param group the group it names ({@value ServiceAnnotations#GROUP}; {@code none} drops it), if any
 * @param requested the address literals it asks for ({@value ServiceAnnotations#ADDRESSES}, else {@code spec.loadBalancerIP})
 * @param requestedIps those that parse, in order
 * @param healthCheck its health check, if any
 * @param adoption what it adopts, if anything
 * @param invalid why an annotation does not parse, if one does not (the Service is then refused)
 */
record ServiceIntent(String namespace, String name, String specName, Map<String, String> labels, String claimOwner,
                     Optional<String> shareKey, Optional<String> pool, Optional<String> router, Optional<String> logicalSwitch,
                     Optional<String> group, List<String> requested, List<InetAddress> requestedIps,
                     Optional<HealthCheck> healthCheck, Optional<Adoption> adoption, Optional<String> invalid) {
    /** What {@code ovnj.dev/switch} or {@code ovnj.dev/group} says to drop the attachment. */
    static final String NONE = "none";

    ServiceIntent {
        labels = Map.copyOf(labels);
        requested = List.copyOf(requested);
        requestedIps = List.copyOf(requestedIps);
    }

    /**
     * Reads a Service.
     *
     * @param service the Service
     * @return what it asks for; a malformed annotation is in {@link #invalid()}, not thrown
     */
    static ServiceIntent of(Service service) {
        Map<String, String> a = Optional.ofNullable(service.getMetadata().getAnnotations()).orElse(Map.of());
        Optional<HealthCheck> healthCheck = Optional.empty();
        Optional<Adoption> adoption = Optional.empty();
        Optional<String> invalid = Optional.empty();
        try {
            healthCheck = ServiceAnnotations.healthCheck(service);
            adoption = ServiceAnnotations.adoption(service);
        } catch (IllegalArgumentException e) {
            invalid = Optional.of(e.getMessage());
        }
        List<String> requested = ServiceAnnotations.requestedAddresses(service);
        List<InetAddress> ips = new ArrayList<>();
        for (String literal : requested) {
            try {
                ips.add(IpAddresses.parse(literal));
            } catch (IllegalArgumentException malformed) {
                // Named by Tenancy (AddressInvalid).
            }
        }
        return new ServiceIntent(service.getMetadata().getNamespace(), service.getMetadata().getName(), ServiceSpecs.specName(service),
                Optional.ofNullable(service.getMetadata().getLabels()).orElse(Map.of()), AddressSharing.claimOwner(service),
                ServiceAnnotations.shareKey(service), text(a.get(EipPools.ANNOTATION)), text(a.get(ServiceAnnotations.ROUTER)),
                text(a.get(ServiceAnnotations.SWITCH)), text(a.get(ServiceAnnotations.GROUP)), requested, ips, healthCheck, adoption,
                invalid);
    }

    /** Whether the Service names any placement of its own (router, switch or group other than {@code none}). */
    boolean namesPlacement() {
        return router.isPresent() || logicalSwitch.filter(s -> !s.equals(NONE)).isPresent() || group.filter(g -> !g.equals(NONE)).isPresent();
    }

    private static Optional<String> text(String value) {
        return Optional.ofNullable(value).map(String::trim).filter(s -> !s.isEmpty());
    }
}
