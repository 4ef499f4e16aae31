package dev.ovnj.lb.diagnosis;

import java.util.Objects;
import java.util.Optional;

/**
 * The fate of a client's packet to a VIP when the load balancer picks one backend: delivered, or
 * dropped or rejected at a named stage, with the Northbound row responsible when one can be named.
 *
 * @param backend the backend ({@code IP:PORT}), or empty text for a VIP without backends
 * @param cause why it was or was not delivered
 * @param direction {@code request} (client to backend) or {@code reply}, where the packet stopped;
 *        empty when delivered or when no trace was needed
 * @param stage the logical-flow stage that stopped it, e.g. {@code ls_out_acl_eval}, or empty
 * @param datapath the switch or router of that stage, or empty
 * @param object the Northbound row responsible, when one can be named
 * @param message what happened, with the concrete names
 * @param fix what to change, or empty text when delivered
 */
public record BackendPath(String backend, PathCause cause, String direction, String stage, String datapath,
                          Optional<PathObject> object, String message, String fix) {
    /**
     * Checks the fields.
     *
     * @param backend the backend, or empty
     * @param cause the cause
     * @param direction where it stopped, or empty
     * @param stage the stage, or empty
     * @param datapath the datapath, or empty
     * @param object the row responsible, when named
     * @param message what happened
     * @param fix what to change, or empty
     */
    public BackendPath {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(datapath, "datapath");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(fix, "fix");
    }

    /**
     * Whether the packet got there and back.
     *
     * @return true for {@link PathCause#DELIVERED}
     */
    public boolean delivered() {
        return cause == PathCause.DELIVERED;
    }
}
