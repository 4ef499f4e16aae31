package dev.ovnj.lb.diagnosis;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of tracing one client's packets to one VIP, once per backend.
 *
 * @param loadBalancer the Load_Balancer row serving the VIP
 * @param vip the VIP ({@code IP:PORT})
 * @param protocol {@code tcp}, {@code udp} or {@code sctp}
 * @param client the client's address and source port ({@code IP:PORT})
 * @param datapath the router or switch the client's packets enter
 * @param inport the logical port they enter by
 * @param backends one entry per backend, in the VIP's order (one entry without backend when it has none)
 */
public record PathReport(String loadBalancer, String vip, String protocol, String client, String datapath, String inport,
                         List<BackendPath> backends) {
    /**
     * Checks and copies.
     *
     * @param loadBalancer the row name
     * @param vip the VIP
     * @param protocol the protocol
     * @param client the client
     * @param datapath where it enters
     * @param inport the port it enters by
     * @param backends the backends' paths
     */
    public PathReport {
        Objects.requireNonNull(loadBalancer, "loadBalancer");
        Objects.requireNonNull(vip, "vip");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(datapath, "datapath");
        Objects.requireNonNull(inport, "inport");
        backends = List.copyOf(backends);
    }

    /**
     * How many backends the client's packets reach and get answers back from.
     *
     * @return the count
     */
    public long delivered() {
        return backends.stream().filter(BackendPath::delivered).count();
    }

    /**
     * Whether every backend is reached (false for a VIP without backends).
     *
     * @return true when all are delivered
     */
    public boolean allDelivered() {
        return !backends.isEmpty() && delivered() == backends.size();
    }
}
