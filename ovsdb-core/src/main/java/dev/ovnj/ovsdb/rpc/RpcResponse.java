package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * The reply to a {@link RpcRequest}. Exactly one of {@code result} and {@code error} is
 * meaningful; the other is JSON {@code null}.
 *
 * @param id     the id of the request being answered
 * @param result the result, JSON null on error; a Java {@code null} is taken as JSON null
 * @param error  the error, JSON null on success; a Java {@code null} is taken as JSON null
 */
public record RpcResponse(JsonNode id, JsonNode result, JsonNode error) implements RpcMessage {

    /**
     * Validates the response and normalises absent members to JSON null.
     *
     * @param id     the id of the request being answered
     * @param result the result, or {@code null}
     * @param error  the error, or {@code null}
     */
    public RpcResponse {
        Objects.requireNonNull(id, "id");
        result = result == null ? NullNode.getInstance() : result;
        error = error == null ? NullNode.getInstance() : error;
    }

    /**
     * Creates a successful response.
     *
     * @param id     the id of the request being answered
     * @param result the result
     * @return the response
     */
    public static RpcResponse success(JsonNode id, JsonNode result) {
        return new RpcResponse(id, result, null);
    }

    /**
     * Creates an error response.
     *
     * @param id    the id of the request being answered
     * @param error the error, conventionally a string or an object with {@code error} and
     *              {@code details} members
     * @return the response
     */
    public static RpcResponse failure(JsonNode id, JsonNode error) {
        return new RpcResponse(id, null, error);
    }

    /**
     * Tells whether this response reports an error.
     *
     * @return {@code true} if {@link #error()} is not JSON null
     */
    public boolean isError() {
        return !error.isNull();
    }
}
