package dev.ovnj.lb;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Where one spec stands, for the embedding controller.
 *
 * @param owner the owner
 * @param spec the spec's name
 * @param state the state
 * @param reasons why it is pending or invalid
 * @param warnings problems that do not stop it (foreign rows with its name, an EIP OVN will not answer ARP for)
 * @param rows UUIDs of its Load_Balancer rows when applied
 * @param repairs how many times drift on its rows was repaired
 * @param lastRepair latency of the most recent repair, from seeing the drift to the repair committed
 */
public record SpecStatus(String owner, String spec, State state, List<String> reasons, List<String> warnings,
                         Set<UUID> rows, long repairs, Optional<Duration> lastRepair) {

    /** The states of a spec. */
    public enum State {
        /** The database holds exactly what the spec says. */
        APPLIED,
        /** Changes are being written. */
        APPLYING,
        /** Waiting for something that does not exist yet (a router, a switch, a group being created). */
        PENDING,
        /** Not written: the spec is invalid. */
        INVALID
    }

    /**
     * Copies the collections.
     *
     * @param lastRepair latency of the most recent repair, from seeing the drift to the repair committed
     * @param owner the owner
     * @param reasons why it is pending or invalid
     * @param repairs how many times drift on its rows was repaired
     * @param rows UUIDs of its Load_Balancer rows when applied
     * @param spec the spec's name
     * @param state the state
     * @param warnings problems that do not stop it (foreign rows with its name, an EIP OVN will not answer ARP for)
     */
    public SpecStatus {
        reasons = List.copyOf(reasons);
        warnings = List.copyOf(warnings);
        rows = Set.copyOf(rows);
    }
}
