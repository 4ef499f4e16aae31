package dev.ovnj.kubernetes;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.ClientIPConfig;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.SessionAffinityConfig;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.net.InetAddress;
import java.util.ArrayList;
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

    /** {@code options:affinity_timeout}'s largest value (ovn-nb(5)). */
    static final int MAX_AFFINITY_TIMEOUT = 65535;
    /** {@code sessionAffinityConfig.clientIP.timeoutSeconds}' default (the Service API's). */
    static final int DEFAULT_AFFINITY_TIMEOUT = 10800;
    static final String AFFINITY_TIMEOUT_FIELD = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";

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
     * A Service's spec, with what the Service's condition and Events must say about how it was made.
     *
     * @param spec the load balancer
     * @param notes what the condition's message adds: VIPs without ready endpoints (they reject) or
     *     served by terminating endpoints, a clamped field
     * @param clamped one message per field OVN cannot hold as given and the spec holds clamped,
     *     each naming the field, for a Warning Event
     */
    public record Translation(LoadBalancerSpec spec, List<String> notes, List<String> clamped) {
        /**
         * Copies the lists.
         *
         * @param spec the load balancer
         * @param notes what the condition's message adds
         * @param clamped one message per clamped field
         */
        public Translation {
            Objects.requireNonNull(spec, "spec");
            notes = List.copyOf(notes);
            clamped = List.copyOf(clamped);
        }
    }

    /**
     * One VIP per Service port and EIP (so a dual-stack Service gets an IPv4 and an IPv6 VIP per
     * port), each with the endpoints of its family that Kubernetes says should take traffic
     * ({@link #backends}); a VIP without any keeps an empty backend list and rejects
     * ({@code options:reject}). The Service's {@code sessionAffinity} and
     * {@code externalTrafficPolicy} become the load balancer's options ({@link #options}); its
     * {@code loadBalancerSourceRanges} (or their legacy annotation) the spec's source ranges, in
     * which case the spec is attached to the router only.
     *
     * @param service the Service
     * @param slices its EndpointSlices
     * @param eips its external addresses, at most one per family
     * @param attachment where to attach
     * @param gatewayRouter whether the attachment's router is a gateway router ({@code options:chassis}),
     *     which decides what {@code externalTrafficPolicy: Local} becomes ({@link #options})
     * @param healthCheck the health check of every VIP, if any
     * @return the spec, with what the condition must say about it
     * @throws IllegalArgumentException naming the field when a port's protocol is not TCP, UDP or
     *     SCTP, or a field holds a value the API server would not let through; a
     *     {@link dev.ovnj.lb.spec.SpecException} when the spec is invalid (e.g. a source range that
     *     is no CIDR)
     */
    public static Translation translate(Service service, Collection<EndpointSlice> slices, List<InetAddress> eips,
                                        ServiceAnnotations.Attachment attachment, boolean gatewayRouter,
                                        Optional<HealthCheck> healthCheck) {
        List<String> clamped = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        LoadBalancerSpec.Builder spec = LoadBalancerSpec.builder(specName(service)).routers(attachment.router())
                .options(options(service, gatewayRouter, clamped));
        if (!gatewayRouter && "Local".equals(service.getSpec().getExternalTrafficPolicy())) {
            notes.add("externalTrafficPolicy Local: no skip_snat on distributed router " + attachment.router()
                    + " (OVN keeps the client's address there without it)");
        }
        List<String> ranges = SourceRanges.of(service);
        if (ranges.isEmpty()) {
            // With ranges, the router alone: the switch's own load-balancing stage would let its
            // ports reach the backends before the router's policies see them.
            attachment.logicalSwitch().ifPresent(spec::switches);
        }
        spec.sourceRanges(ranges);
        attachment.group().ifPresent(spec::group);
        boolean publishNotReady = Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses());
        List<String> rejecting = new ArrayList<>();
        List<String> draining = new ArrayList<>();
        int vips = 0;
        for (InetAddress eip : eips) {
            IpFamily family = IpFamily.of(eip);
            for (ServicePort port : service.getSpec().getPorts()) {
                Protocol protocol = Protocol.parse(Objects.requireNonNullElse(port.getProtocol(), "TCP"));
                String address = new Endpoint(eip, port.getPort()).toString();
                Backends backends = backends(port, protocol, family, slices, publishNotReady);
                VipSpec vip = VipSpec.of(protocol, address, backends.addresses());
                spec.vip(healthCheck.map(vip::withHealthCheck).orElse(vip));
                vips++;
                String named = address + "/" + protocol.wireValue();
                if (backends.addresses().isEmpty()) {
                    rejecting.add(named);
                } else if (backends.terminating()) {
                    draining.add(named);
                }
            }
        }
        if (!rejecting.isEmpty()) {
            notes.add(rejecting.size() == vips ? "no ready endpoints: every VIP rejects connections"
                    : "no ready endpoints for " + String.join(", ", rejecting) + ": connections are rejected");
        }
        if (!draining.isEmpty()) {
            notes.add("no ready endpoints for " + String.join(", ", draining) + ": serving terminating endpoints until they end");
        }
        notes.addAll(clamped);
        return new Translation(spec.build(), notes, clamped);
    }

    /**
     * The load balancer's options: {@code reject} always (OVN rejects only on a VIP without
     * backends, so a client gets a TCP RST or ICMP unreachable at once rather than a black hole,
     * as with kube-proxy and ovn-kubernetes); {@code affinity_timeout} for
     * {@code sessionAffinity: ClientIP}, clamped to OVN's maximum; {@code skip_snat} for
     * {@code externalTrafficPolicy: Local} on a gateway router, so the router's
     * {@code lb_force_snat_ip} does not hide the client's address. On a distributed router OVN
     * applies {@code lb_force_snat_ip} to no load-balanced traffic, so the backends see the
     * client's address without {@code skip_snat}, and with it OVN would not un-DNAT the replies
     * (every connection would fail; the engine refuses such a spec): none there.
     *
     * @param service the Service
     * @param gatewayRouter whether the Service's router is a gateway router ({@code options:chassis})
     * @param clamped where to add a message per clamped field
     * @return the options
     * @throws IllegalArgumentException naming the field for a value the API server refuses
     */
    static LbOptions options(Service service, boolean gatewayRouter, List<String> clamped) {
        LbOptions options = LbOptions.DEFAULTS.withReject(true);
        String affinity = Objects.requireNonNullElse(service.getSpec().getSessionAffinity(), "None");
        switch (affinity) {
            case "None" -> { }
            case "ClientIP" -> options = options.withAffinityTimeout(affinityTimeout(service, clamped));
            default -> throw new IllegalArgumentException("spec.sessionAffinity: \"" + affinity + "\" is neither ClientIP nor None");
        }
        String traffic = Objects.requireNonNullElse(service.getSpec().getExternalTrafficPolicy(), "Cluster");
        switch (traffic) {
            case "Cluster" -> { }
            case "Local" -> options = options.withSkipSnat(gatewayRouter);
            default -> throw new IllegalArgumentException("spec.externalTrafficPolicy: \"" + traffic + "\" is neither Cluster nor Local");
        }
        return options;
    }

    private static int affinityTimeout(Service service, List<String> clamped) {
        int seconds = Optional.ofNullable(service.getSpec().getSessionAffinityConfig())
                .map(SessionAffinityConfig::getClientIP).map(ClientIPConfig::getTimeoutSeconds)
                .orElse(DEFAULT_AFFINITY_TIMEOUT);
        if (seconds < 1) {
            throw new IllegalArgumentException(AFFINITY_TIMEOUT_FIELD + ": " + seconds + " is not a positive number of seconds");
        }
        if (seconds > MAX_AFFINITY_TIMEOUT) {
            clamped.add(AFFINITY_TIMEOUT_FIELD + ": " + seconds + " s is above OVN's maximum affinity_timeout, clamped to "
                    + MAX_AFFINITY_TIMEOUT + " s");
            return MAX_AFFINITY_TIMEOUT;
        }
        return seconds;
    }

    /**
     * The endpoints of one VIP (a Service port and a family), as OVN backends.
     *
     * @param addresses {@code ip:port} (or {@code [ip]:port}), sorted
     * @param terminating whether they are terminating endpoints, served because none is ready
     */
    record Backends(List<String> addresses, boolean terminating) {
    }

    /**
     * The endpoints of one Service port and family that should take traffic, as kube-proxy and
     * ovn-kubernetes choose them: the ready ones; when none is ready, the ones still
     * {@code serving} while {@code terminating} (so a rolling update drains instead of
     * dropping); with {@code publishNotReadyAddresses}, every endpoint. Each is
     * {@code ip:port} (or {@code [ip]:port}), sorted so that the order in which slices arrive
     * never shows up as a change. The port is the one each slice publishes under the Service
     * port's name: that is where Kubernetes has resolved a {@code targetPort}, named ones
     * included (possibly to a different number per pod).
     *
     * @param port the Service port
     * @param protocol its protocol
     * @param family the VIP's family
     * @param slices the Service's slices
     * @param publishNotReady the Service's {@code publishNotReadyAddresses}
     * @return the backends
     */
    static Backends backends(ServicePort port, Protocol protocol, IpFamily family, Collection<EndpointSlice> slices,
                             boolean publishNotReady) {
        SortedSet<String> ready = new TreeSet<>();
        SortedSet<String> terminating = new TreeSet<>();
        String wantedType = ServiceIpFamilies.name(family);
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
                SortedSet<String> into = publishNotReady || isReady(endpoint) ? ready
                        : isServingTerminating(endpoint) ? terminating : null;
                if (into != null) {
                    for (String ip : endpoint.getAddresses()) {
                        into.add(ip.contains(":") ? "[" + ip + "]:" + target.get() : ip + ":" + target.get());
                    }
                }
            }
        }
        return ready.isEmpty() && !terminating.isEmpty() ? new Backends(List.copyOf(terminating), true)
                : new Backends(List.copyOf(ready), false);
    }

    private static String nameOf(EndpointPort port) {
        return Objects.requireNonNullElse(port.getName(), "");
    }

    /** The API asks consumers to treat an absent readiness as ready. */
    private static boolean isReady(io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint) {
        return endpoint.getConditions() == null || !Boolean.FALSE.equals(endpoint.getConditions().getReady());
    }

    /**
     * Terminating and still serving; an absent {@code serving} defers to {@code ready}, which is
     * false here, and an absent {@code terminating} means not terminating (the API's rules).
     */
    private static boolean isServingTerminating(io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint) {
        EndpointConditions c = endpoint.getConditions();
        return c != null && Boolean.TRUE.equals(c.getServing()) && Boolean.TRUE.equals(c.getTerminating());
    }
}
