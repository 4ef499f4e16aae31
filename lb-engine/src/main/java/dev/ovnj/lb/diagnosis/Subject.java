package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One load balancer to check: its spec name, what the desired state says (when a file or spec list
 * was given), and its Northbound rows, one per protocol.
 *
 * @param name the spec name
 * @param desired the desired spec, when known
 * @param rows the rows, found or missing
 */
record Subject(String name, Optional<LoadBalancerSpec> desired, List<RowRef> rows) {
    Subject {
        rows = List.copyOf(rows);
    }

    /**
     * A Load_Balancer row of a subject.
     *
     * @param rowName the row's name (expected or actual)
     * @param protocol the protocol the row is for
     * @param uuid the row, or empty when it is missing
     * @param note why a missing row is missing, when more is known (e.g. another owner has it)
     */
    record RowRef(String rowName, String protocol, Optional<UUID> uuid, String note) {
    }
}
