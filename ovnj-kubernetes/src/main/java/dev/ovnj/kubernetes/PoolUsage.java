package dev.ovnj.kubernetes;

import java.util.List;

/**
 * One {@link EipPool}'s numbers as the controller sees them now: what its status says, and what a
 * metric of pools reads.
 *
 * @param pool the pool's name
 * @param valid whether the pool gives out addresses (its {@code Ready} condition)
 * @param allocated how many of its addresses are claimed
 * @param free how many can still be given: neither claimed, used by OVN nor reserved (0 for an invalid pool)
 * @param reserved how many nobody may take ({@link ReservedAddresses}: router port addresses, route next hops, excluded)
 * @param waiting the Services ({@code namespace/name}, sorted) that wait for an address of the pool
 */
record PoolUsage(String pool, boolean valid, long allocated, long free, long reserved, List<String> waiting) {
    PoolUsage {
        waiting = List.copyOf(waiting);
    }
}
