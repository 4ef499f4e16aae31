package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/** A sent request still waiting for its response; confined to the channel's event loop. */
final class PendingCall {

    private final String method;
    private final boolean dump;
    private final CompletableFuture<JsonNode> future;
    private ScheduledFuture<?> timer;

    PendingCall(String method, boolean dump, CompletableFuture<JsonNode> future) {
        this.method = method;
        this.dump = dump;
        this.future = future;
    }

    String method() {
        return method;
    }

    /** Whether the request asks for a database dump (see {@code RpcConnection.awaitingDump()}). */
    boolean dump() {
        return dump;
    }

    CompletableFuture<JsonNode> future() {
        return future;
    }

    void timer(ScheduledFuture<?> timer) {
        this.timer = timer;
    }

    void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
