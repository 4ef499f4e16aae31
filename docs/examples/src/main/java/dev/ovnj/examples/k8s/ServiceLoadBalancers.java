package dev.ovnj.examples.k8s;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** How a Service of type LoadBalancer and its EndpointSlices become a {@link LoadBalancerSpec}. */
public final class ServiceLoadBalancers {

    private ServiceLoadBalancers() {
    }

    /**
     * The spec's name for a Service.
     *
     * @param namespace the Service's namespace
     * @param service the Service's name
     * @return {@code <namespace>-<service>}
     */
    public static String specName(String namespace, String service) {
        return namespace + "-" + service;
    }

    /**
     * One VIP per Service port on {@code eip}, attached to the project's router and switch.
     *
     * @param service a Service of type LoadBalancer
     * @param slices the Service's EndpointSlices
     * @param eip the Service's external IPv4 address
     * @param project where to attach
     * @return the spec
     */
    public static LoadBalancerSpec spec(Service service, Collection<EndpointSlice> slices, String eip, Project project) {
        LoadBalancerSpec.Builder spec = LoadBalancerSpec.builder(specName(project.namespace(), service.getMetadata().getName()))
                .routers(project.router())
                .switches(project.logicalSwitch());
        for (ServicePort port : service.getSpec().getPorts()) {
            Protocol protocol = Protocol.parse(Objects.requireNonNullElse(port.getProtocol(), "TCP"));
            spec.vip(VipSpec.of(protocol, eip + ":" + port.getPort(), backends(port, protocol, slices)));
        }
        return spec.build();
    }

    /**
     * The ready IPv4 endpoints of a Service port as {@code ip:port}, sorted so that the order in
     * which slices arrive never shows up as a change. The port is the one each slice publishes
     * under the Service port's name: that is where a named {@code targetPort} has been resolved
     * to a number, possibly a different one per pod.
     */
    static List<String> backends(ServicePort port, Protocol protocol, Collection<EndpointSlice> slices) {
        SortedSet<String> backends = new TreeSet<>();
        for (EndpointSlice slice : slices) {
            // The EIP is IPv4 and OVN wants a VIP's backends in its family.
            if (!"IPv4".equals(slice.getAddressType())) {
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
            for (Endpoint endpoint : slice.getEndpoints()) {
                if (isReady(endpoint)) {
                    endpoint.getAddresses().forEach(ip -> backends.add(ip + ":" + target.get()));
                }
            }
        }
        return List.copyOf(backends);
    }

    private static String nameOf(EndpointPort port) {
        return Objects.requireNonNullElse(port.getName(), "");
    }

    /** The API asks consumers to treat an unknown (absent) readiness as ready. */
    private static boolean isReady(Endpoint endpoint) {
        return endpoint.getConditions() == null || !Boolean.FALSE.equals(endpoint.getConditions().getReady());
    }
}
