package dev.ovnj.nb.eip;

import java.util.UUID;

/**
 * A NAT rule of a router whose {@code external_ip} is an address.
 *
 * @param router the name of the router whose {@code nat} column references the rule
 * @param nat the NAT row's UUID
 * @param type {@code dnat}, {@code snat} or {@code dnat_and_snat}
 * @param logicalIp the rule's {@code logical_ip} (an address, or a network for SNAT)
 */
public record NatUse(String router, UUID nat, String type, String logicalIp) {
}
