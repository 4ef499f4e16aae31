package dev.ovnj.kubernetes;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.net.InetAddress;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** How a Service of type LoadBalancer, its EndpointSlices and its EIPs become one {@link LoadBalancerSpec}. */
public final class ServiceSpecs {
    /** The label by which Kubernetes ties an EndpointSlice to its Service. */
    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private ServiceSpecs() {
    }

    /**
     * The spec's name for a Service: {@code namespace/name}, which no two Services share (a
     * dash-joined name would be ambiguous, since both parts may contain dashes).
     *
     * @param namespace the Service's namespace
     * @param name the Service's name
     * @return the spec name, also the owner of the Service's EIP claims
     */
    public static String specName(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * The spec name of a Service.
     *
     * @param service the Service
     * @return {@code namespace/name}
     */
    public static String specName(Service service) {
        return specName(service.getMetadata().getNamespace(), service.getMetadata().getName());
    }

    /**
     * One VIP per Service port and EIP (so a dual-stack Service gets an IPv4 and an IPv6 VIP per
     * port), each with the ready endpoints of its family as backends; the Service's
     * {@code loadBalancerSourceRanges} (or their legacy annotation) as the spec's source ranges, in
     * which case the spec is attached to the router only.
     *
     * @param service the Service
     * @param slices its EndpointSlices
     * @param eips its external addresses, at most one per family
     * @param attachment where to attach
     * @param healthCheck the health check of every VIP, if any
     * @return the spec
     * @throws IllegalArgumentException when a port's protocol is not TCP, UDP or SCTP, or the spec
     *     is invalid (a {@link dev.ovnj.lb.spec.SpecException}, e.g. a source range that is no CIDR)
     */
    public static LoadBalancerSpec spec(Service service, Collection<EndpointSlice> slices, List<InetAddress> eips,
                                        ServiceAnnotations.Attachment attachment, Optional<HealthCheck> healthCheck) {
        LoadBalancerSpec.Builder spec = LoadBalancerSpec.builder(specName(service)).routers(attachment.router());
        List<String> ranges = SourceRanges.of(service);
        if (ranges.isEmpty()) {
            // With ranges, the router alone: the switch's own load-balancing stage would let its
            // ports reach the backends before the router's policies see them.
            attachment.logicalSwitch().ifPresent(spec::switches);
        }
        spec.sourceRanges(ranges);
        attachment.group().ifPresent(spec::group);
        for (InetAddress eip : eips) {
            IpFamily family = IpFamily.of(eip);
            for (ServicePort port : service.getSpec().getPorts()) {
                Protocol protocol = Protocol.parse(Objects.requireNonNullElse(port.getProtocol(), "TCP"));
                VipSpec vip = VipSpec.of(protocol, new Endpoint(eip, port.getPort()).toString(),
                        backends(port, protocol, family, slices));
                spec.vip(healthCheck.map(vip::withHealthCheck).orElse(vip));
            }
        }
        return spec.build();
    }

    /**
     * The ready endpoints of one Service port and family, as {@code ip:port} (or {@code [ip]:port}),
     * sorted so that the order in which slices arrive never shows up as a change. The port is the
     * one each slice publishes under the Service port's name: that is where Kubernetes has
     * resolved a {@code targetPort}, named ones included (possibly to a different number per pod).
     *
     * @param port the Service port
     * @param protocol its protocol
     * @param family the VIP's family
     * @param slices the Service's slices
     * @return the backends
     */
    static List<String> backends(ServicePort port, Protocol protocol, IpFamily family, Collection<EndpointSlice> slices) {
        SortedSet<String> backends = new TreeSet<>();
        String wantedType = family == IpFamily.IPV4 ? "IPv4" : "IPv6";
        for (EndpointSlice slice : slices) {
            if (!wantedType.equals(slice.getAddressType())) {
                continue;
            }
            Optional<Integer> target = slice.getPorts().stream()
                    .filter(p -> nameOf(p).equals(Objects.requireNonNullElse(port.getName(), ""))
                            && Protocol.parse(Objects.requireNonNullElse(p.getProtocol(), "TCP")) == protocol)
                    .map(EndpointPort::getPort)
                    .filter(Objects::nonNull)
                    .findFirst();
            if (target.isEmpty()) {
                continue;
            }
            for (io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint : slice.getEndpoints()) {
                if (isReady(endpoint)) {
                    for (String ip : endpoint.getAddresses()) {
                        backends.add(ip.contains(":") ? "[" + ip + "]:" + target.get() : ip + ":" + target.get());
                    }
                }
            }
        }
        return List.copyOf(backends);
    }

    private static String nameOf(EndpointPort port) {
        return Objects.requireNonNullElse(port.getName(), "");
    }

    /** The API asks consumers to treat an absent readiness as ready. */
    private static boolean isReady(io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint) {
        return endpoint.getConditions() == null || !Boolean.FALSE.equals(endpoint.getConditions().getReady());
    }
}
