package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Objects;

/**
 * A one-way message: a request whose id is {@code null}, so no response follows. OVSDB servers
 * use it for {@code update}, {@code update2}, {@code update3}, {@code locked}, {@code stolen}
 * and {@code monitor_canceled}.
 *
 * @param method the notification's method
 * @param params the positional parameters
 */
public record RpcNotification(String method, ArrayNode params) implements RpcMessage {

    /**
     * Validates the notification.
     *
     * @param method the notification's method
     * @param params the positional parameters
     */
    public RpcNotification {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
    }
}
