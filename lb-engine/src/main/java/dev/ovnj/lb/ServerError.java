package dev.ovnj.lb;

/**
 * An error the server (or the client before sending) gave for a transaction of one spec.
 *
 * @param error the error, e.g. {@code not allowed} or {@code constraint violation}
 * @param details the server's details, empty when it gave none
 */
public record ServerError(String error, String details) {

    /**
     * The error and its details in one line.
     *
     * @return e.g. {@code not allowed: ovsdb-server is in backup mode}
     */
    public String describe() {
        return details.isEmpty() ? error : error + ": " + details;
    }
}
