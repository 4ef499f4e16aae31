package dev.ovnj.nb.eip;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * A Load_Balancer VIP on an address, with the datapaths whose {@code load_balancer} column
 * references the load balancer (attachment through a Load_Balancer_Group is not followed).
 *
 * @param loadBalancer the load balancer's name
 * @param uuid the load balancer's UUID
 * @param vip the {@code vips} key as the database holds it
 * @param protocol the load balancer's {@code protocol}, empty when unset (OVN then uses tcp)
 * @param port the VIP's port, empty for a bare address
 * @param routers names of the routers whose {@code load_balancer} column references it, sorted
 * @param switches names of the switches whose {@code load_balancer} column references it, sorted
 */
public record VipUse(String loadBalancer, UUID uuid, String vip, Optional<String> protocol, OptionalInt port,
        List<String> routers, List<String> switches) {

    /**
     * Freezes the lists.
     *
     * @param loadBalancer the name
     * @param uuid the UUID
     * @param vip the key
     * @param protocol the protocol
     * @param port the port
     * @param routers attached routers
     * @param switches attached switches
     */
    public VipUse {
        routers = List.copyOf(routers);
        switches = List.copyOf(switches);
    }
}
