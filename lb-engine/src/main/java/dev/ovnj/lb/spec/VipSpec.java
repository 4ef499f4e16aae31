package dev.ovnj.lb.spec;

import java.util.List;
import java.util.Objects;

/**
 * One VIP of a load balancer: {@code vip} (an EIP with a port, e.g. {@code 168.119.17.51:2379})
 * forwarded over {@code protocol} to {@code backends} ({@code ip:port}). An empty backend list is
 * allowed; OVN then rejects or drops per the load balancer's options.
 *
 * @param vip the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
 * @param protocol its protocol
 * @param backends the backends in order
 */
public record VipSpec(String vip, Protocol protocol, List<String> backends) {

    /**
     * Copies the backends.
     *
     * @param backends the backends in order
     * @param protocol its protocol
     * @param vip the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
     */
    public VipSpec {
        Objects.requireNonNull(vip, "vip");
        Objects.requireNonNull(protocol, "protocol");
        backends = List.copyOf(backends);
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
}
