package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.monitor.MonitorMethod;
import dev.ovnj.ovsdb.rpc.InactivityProbe;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.rpc.RpcPipeline;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.typed.CompatibilityReport;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One live connection to one remote, from channel open to close. Never reused after it closes. */
final class Session {
    final Remote remote;
    final Channel channel;
    final RpcConnection rpc;
    final long id;
    volatile DatabaseSchema schema;
    volatile MonitorMethod monitorMethod;
    volatile List<String> monitoredTables = List.of();
    volatile boolean synced;
    /** The server's latest {@code _Server} row for the database; written on the callback thread only after the handshake. */
    volatile ServerCheck serverCheck;
    volatile CompatibilityReport compatibility;
    /** Confirms writes when the server does not order updates before replies; see {@link WriteConfirmation}. */
    volatile WriteConfirmation confirmation = WriteConfirmation.ORDERED;

    Session(long id, Remote remote, Channel channel, RpcConnection rpc) {
        this.id = id;
        this.remote = remote;
        this.channel = channel;
        this.rpc = rpc;
    }

    CompletableFuture<JsonNode> call(String method, Duration timeout, Object... params) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (Object p : params) {
            if (p instanceof JsonNode n) {
                arr.add(n);
            } else if (p instanceof Boolean b) {
                arr.add(b);
            } else {
                arr.add(String.valueOf(p));
            }
        }
        return rpc.call(method, arr, timeout);
    }

    ServerModel model() {
        ServerCheck check = serverCheck;
        return check == null ? ServerModel.UNKNOWN : check.model();
    }

    boolean isOpen() {
        return !rpc.closeFuture().isDone();
    }

    long bytesReceived() {
        InactivityProbe probe = (InactivityProbe) channel.pipeline().get(RpcPipeline.PROBE);
        return probe == null ? 0 : probe.bytesReceived();
    }

    void close() {
        channel.close();
    }

    @Override
    public String toString() {
        return remote.toString();
    }
}
