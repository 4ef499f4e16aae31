package dev.ovnj.ovsdb.rpc;

/**
 * One JSON-RPC 1.0 message as exchanged with an OVSDB server (RFC 7047 section 4).
 *
 * <p>The JSON nodes inside a message are not copied, so that multi-megabyte updates are not
 * duplicated; whoever creates or receives a message must not modify its nodes afterwards.
 */
public sealed interface RpcMessage permits RpcRequest, RpcResponse, RpcNotification {
}
