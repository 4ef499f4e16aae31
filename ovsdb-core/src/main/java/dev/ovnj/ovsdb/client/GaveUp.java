package dev.ovnj.ovsdb.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A client that stopped connecting for good: before its first sync, every remote refused it for
 * a reason that retrying cannot cure (the server does not serve the database, e.g. an
 * {@code OVN_Southbound} server given as the Northbound; or, with a strict model, its schema).
 * The client stays so until it is closed; build one with the right remotes. Read it with
 * {@link OvsdbClient#gaveUp()}; listeners hear {@link ConnectionEvent.Kind#GAVE_UP}.
 *
 * @param remotes the client's remotes, every one of which refused it
 * @param remote the remote whose refusal ended the attempts, when known
 * @param reason the refusal, in words (e.g. {@code tcp:127.0.0.1:6642 does not serve database OVN_Northbound (it
 *     serves OVN_Southbound, _Server)})
 * @param cause the refusal itself
 */
public record GaveUp(List<Remote> remotes, Optional<Remote> remote, String reason, Throwable cause) {

    /**
     * Checks and copies the components.
     *
     * @param remotes the client's remotes
     * @param remote the remote whose refusal ended the attempts
     * @param reason the refusal, in words
     * @param cause the refusal itself
     */
    public GaveUp {
        remotes = List.copyOf(remotes);
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(cause, "cause");
    }

    /**
     * One line for a log, a health check or an exception:
     * {@code gave up connecting to [tcp:...]: <reason>}.
     *
     * @return the description
     */
    public String describe() {
        return "gave up connecting to " + remotes + " (retrying cannot help): " + reason;
    }
}
