package dev.ovnj.lb;

/**
 * Why a spec's write did not succeed: the server's error for a transaction of the spec, the
 * client's reason for not sending it (e.g. a value the schema refuses), or the engine's own (a
 * plan that threw: {@code planning failed}; rows the database did not keep: {@code not converging}).
 *
 * @param error the error, e.g. {@code not allowed} or {@code constraint violation}
 * @param details the server's details, empty when it gave none
 */
public record WriteError(String error, String details) {

    /**
     * The error and its details in one line.
     *
     * @return e.g. {@code not allowed: ovsdb-server is in backup mode}
     */
    public String describe() {
        return details.isEmpty() ? error : error + ": " + details;
    }
}
