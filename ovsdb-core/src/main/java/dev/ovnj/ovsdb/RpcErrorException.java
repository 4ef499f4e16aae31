package dev.ovnj.ovsdb;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The server answered a call with an error. Repeating the same call will fail the same way,
 * except after {@code "canceled"} (see {@link #retriable()}).
 */
public final class RpcErrorException extends OvsdbRpcException {

    private static final long serialVersionUID = 1L;

    /** The server's short error string. */
    private final String error;
    /** The server's explanation, or {@code null}. */
    private final String details;
    private final transient JsonNode rawError;

    /**
     * Creates the exception from the {@code error} member of a response.
     *
     * @param rawError a string, or an object with an {@code error} and an optional
     *                 {@code details} member as RFC 7047 describes
     */
    public RpcErrorException(JsonNode rawError) {
        this(errorOf(rawError), detailsOf(rawError), rawError);
    }

    private RpcErrorException(String error, String details, JsonNode rawError) {
        super("OVSDB server error \"" + error + "\"" + (details == null ? "" : ": " + details), null);
        this.error = error;
        this.details = details;
        this.rawError = rawError;
    }

    private static String errorOf(JsonNode raw) {
        if (raw.isTextual()) {
            return raw.asText();
        }
        JsonNode error = raw.path("error");
        return error.isTextual() ? error.asText() : raw.toString();
    }

    private static String detailsOf(JsonNode raw) {
        JsonNode details = raw.path("details");
        if (details.isMissingNode() || details.isNull()) {
            return null;
        }
        return details.isTextual() ? details.asText() : details.toString();
    }

    /**
     * Returns the server's short error string.
     *
     * @return e.g. {@code "unknown method"}
     */
    public String error() {
        return error;
    }

    /**
     * Returns the server's human-readable explanation.
     *
     * @return the details, or {@code null} if the server sent none
     */
    public String details() {
        return details;
    }

    /**
     * Returns the error exactly as the server sent it.
     *
     * @return the raw {@code error} member, or {@code null} after deserialization
     */
    public JsonNode rawError() {
        return rawError;
    }

    /**
     * True only for {@code "canceled"}: {@code ovsdb-server} answers so when it gives up a call
     * it had taken in, not because of the call: a relay that lost its source while forwarding a
     * transaction, a trigger dropped when the database is replaced. The transaction may or may not
     * have committed, so a writer checks the database (or its cache) before writing again.
     *
     * @return whether the error is {@code "canceled"}
     */
    @Override
    public boolean retriable() {
        return "canceled".equals(error);
    }
}
