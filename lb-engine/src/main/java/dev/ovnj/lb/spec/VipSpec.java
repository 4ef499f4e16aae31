package dev.ovnj.lb.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One VIP of a load balancer: {@code vip} (an EIP with a port, e.g. {@code 168.119.17.51:2379})
 * forwarded over {@code protocol} to {@code backends} ({@code ip:port}). An empty backend list is
 * allowed; OVN then rejects or drops per the load balancer's options. With a {@code healthCheck},
 * OVN probes each backend through the logical switch port that holds its address (found by the
 * engine, or named in {@code backendPorts}).
 *
 * @param vip the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
 * @param protocol its protocol
 * @param backends the backends in order
 * @param healthCheck the health check of this VIP's backends, if any
 * @param backendPorts backend address (without port) to the Logical_Switch_Port to probe it
 *     through, overriding the port found by address
 */
public record VipSpec(String vip, Protocol protocol, List<String> backends, Optional<HealthCheck> healthCheck,
                      Map<String, String> backendPorts) {

    /**
     * Copies the backends. Values are not checked here: {@link LoadBalancerSpec.Builder#build()}
     * checks them, and the engine checks every spec it is given.
     *
     * @param backends the backends in order
     * @param protocol its protocol
     * @param vip the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
     * @param healthCheck the health check, if any
     * @param backendPorts backend address to Logical_Switch_Port name
     */
    public VipSpec {
        Objects.requireNonNull(vip, "vip");
        Objects.requireNonNull(protocol, "protocol");
        backends = List.copyOf(backends);
        Objects.requireNonNull(healthCheck, "healthCheck");
        backendPorts = Map.copyOf(backendPorts);
    }

    /**
     * A VIP without a health check.
     *
     * @param vip the VIP
     * @param protocol its protocol
     * @param backends the backends in order
     */
    public VipSpec(String vip, Protocol protocol, List<String> backends) {
        this(vip, protocol, backends, Optional.empty(), Map.of());
    }

    /**
     * Returns a copy with a health check.
     *
     * @param check the health check
     * @return the new VIP spec
     */
    public VipSpec withHealthCheck(HealthCheck check) {
        return new VipSpec(vip, protocol, backends, Optional.of(check), backendPorts);
    }

    /**
     * Returns a copy that probes one backend through a named logical switch port.
     *
     * @param backendIp the backend's address, without port
     * @param logicalPort the Logical_Switch_Port name
     * @return the new VIP spec
     */
    public VipSpec withBackendPort(String backendIp, String logicalPort) {
        Map<String, String> m = new LinkedHashMap<>(backendPorts);
        m.put(backendIp, logicalPort);
        return new VipSpec(vip, protocol, backends, healthCheck, m);
    }

    /**
     * A TCP VIP.
     *
     * @param vip the VIP
     * @param backends the backends
     * @return the VIP spec
     */
    public static VipSpec tcp(String vip, String... backends) {
        return new VipSpec(vip, Protocol.TCP, List.of(backends));
    }

    /**
     * A UDP VIP.
     *
     * @param vip the VIP
     * @param backends the backends
     * @return the VIP spec
     */
    public static VipSpec udp(String vip, String... backends) {
        return new VipSpec(vip, Protocol.UDP, List.of(backends));
    }

    /**
     * A VIP of any protocol.
     *
     * @param protocol the protocol
     * @param vip the VIP
     * @param backends the backends
     * @return the VIP spec
     */
    public static VipSpec of(Protocol protocol, String vip, List<String> backends) {
        return new VipSpec(vip, protocol, backends);
    }

    /**
     * A VIP of any protocol, from typed endpoints (written in OVN's canonical form).
     *
     * @param protocol the protocol
     * @param vip the VIP, with a port
     * @param backends the backends, with ports
     * @return the VIP spec
     */
    public static VipSpec of(Protocol protocol, Endpoint vip, List<Endpoint> backends) {
        return new VipSpec(vip.toString(), protocol, backends.stream().map(Endpoint::toString).toList());
    }

    /**
     * A TCP VIP from typed endpoints.
     *
     * @param vip the VIP, with a port
     * @param backends the backends, with ports
     * @return the VIP spec
     */
    public static VipSpec tcp(Endpoint vip, Endpoint... backends) {
        return of(Protocol.TCP, vip, List.of(backends));
    }

    /**
     * A UDP VIP from typed endpoints.
     *
     * @param vip the VIP, with a port
     * @param backends the backends, with ports
     * @return the VIP spec
     */
    public static VipSpec udp(Endpoint vip, Endpoint... backends) {
        return of(Protocol.UDP, vip, List.of(backends));
    }
}
