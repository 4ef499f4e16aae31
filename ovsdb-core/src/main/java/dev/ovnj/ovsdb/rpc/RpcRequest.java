package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Objects;

/**
 * A call that expects a {@link RpcResponse} carrying the same id.
 *
 * @param id     the correlation id; never JSON {@code null}, which would make it a notification
 * @param method the method to invoke
 * @param params the positional parameters
 */
public record RpcRequest(JsonNode id, String method, ArrayNode params) implements RpcMessage {

    /**
     * Validates the request.
     *
     * @param id     the correlation id
     * @param method the method to invoke
     * @param params the positional parameters
     * @throws IllegalArgumentException if the id is JSON null
     */
    public RpcRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
        if (id.isNull()) {
            throw new IllegalArgumentException("a request needs a non-null id; use RpcNotification");
        }
    }
}
