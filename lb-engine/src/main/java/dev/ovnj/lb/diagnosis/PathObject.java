package dev.ovnj.lb.diagnosis;

import java.util.Objects;
import java.util.UUID;

/**
 * The Northbound row a packet's fate is pinned on: the ACL that dropped it, the router whose
 * routes miss its destination, the port that is down, the load balancer without backends.
 *
 * @param table the Northbound table, e.g. {@code ACL}, {@code Logical_Router}
 * @param name the row's name (an ACL's {@code name}, else the port, router or load balancer name;
 *        empty for an unnamed ACL or policy)
 * @param uuid the row
 * @param detail what of the row matters, e.g. {@code to-lport priority 1001 match "..." action drop}
 */
public record PathObject(String table, String name, UUID uuid, String detail) {
    /**
     * Checks the fields.
     *
     * @param table the table
     * @param name the name, or empty
     * @param uuid the row
     * @param detail the detail, or empty
     */
    public PathObject {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return table + (name.isEmpty() ? "" : " " + name) + " (" + uuid + (detail.isEmpty() ? "" : ", " + detail) + ")";
    }
}
