package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.RpcErrorException;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.CompatibilityReport;
import dev.ovnj.ovsdb.typed.DatabaseModel;
import dev.ovnj.ovsdb.typed.SchemaCompatibility;
import dev.ovnj.ovsdb.typed.SchemaMismatchException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate between an open socket and a session that may be monitored: the {@code _Server} check
 * (database served; cluster member connected, leader if wanted, not behind a log index already
 * seen; relay connected to its source), the schema, the model check and
 * {@code set_db_change_aware}, sent together and read in that order. Like Lettuce's handshake
 * handler, nothing downstream sees a session that has not passed it. It also picks how the session
 * confirms writes ({@link WriteConfirmation}).
 */
final class Handshake {
    static final String SERVER_DB = "_Server";
    static final String SERVER_MONITOR_ID = "ovnj-server";
    private static final Logger LOG = LoggerFactory.getLogger(Handshake.class);

    private final ClientOptions options;
    // The highest cluster log index any server reported: a member behind it has missed commits.
    private long maxIndexSeen = -1;

    Handshake(ClientOptions options) {
        this.options = options;
    }

    /**
     * Runs the handshake.
     *
     * @param s a freshly opened session
     * @return the same session, ready for its monitors
     */
    CompletableFuture<Session> run(Session s) {
        // The three requests go out together, not each after the previous reply: a server answers
        // in order, and the schema and the change-awareness do not depend on the check's answer,
        // which is still read first (a refused server's schema is never looked at). One round trip
        // instead of three before the monitor can be sent.
        CompletableFuture<Void> checked = checkServer(s);
        // Except over ssl:. With TLS 1.3 the server checks our certificate after we consider the
        // handshake done. With three requests pipelined, TlsSecurityIT once saw a refused
        // certificate reported as "connection closed" instead of the alert that says why (likely:
        // a server closing with requests unread resets the connection, and the reset overtakes the
        // alert). So there the check goes alone and the other two follow its answer, as before.
        CompletableFuture<Void> sendRest = s.remote.kind() == Remote.Kind.SSL ? checked : CompletableFuture.completedFuture(null);
        CompletableFuture<JsonNode> schema = sendRest.thenCompose(x -> s.call("get_schema", options.requestTimeout(), options.database()));
        // Without this a server drops the connection when the schema changes (ovsdb-server(7)); a
        // server that does not know it is still usable.
        CompletableFuture<Void> changeAware = sendRest.thenCompose(x -> s.call("set_db_change_aware", options.requestTimeout(), true))
                .handle((ok, err) -> null);
        return checked
                .thenCompose(x -> schema)
                .thenCompose(schemaJson -> {
                    s.schema = DatabaseSchema.parse(schemaJson);
                    for (String missing : options.monitor().missingTables(s.schema)) {
                        LOG.warn("table {} is not in {}'s schema {}; it is not monitored", missing, s.remote,
                                s.schema.version().orElse("(no version)"));
                    }
                    options.model().ifPresent(model -> checkModel(s, model));
                    return changeAware;
                })
                .thenApply(x -> s);
    }

    private void checkModel(Session s, DatabaseModel model) {
        CompatibilityReport report = SchemaCompatibility.check(model, s.schema);
        if (!report.isCompatible()) {
            if (options.compatibility() == Compatibility.STRICT) {
                throw new SchemaMismatchException(s.remote.toString(), report);
            }
            LOG.warn("{} does not fully fit the model; disabled: {}", s.remote, report.describe());
        }
        s.compatibility = report;
    }

    private CompletableFuture<Void> checkServer(Session s) {
        ObjectNode req = JsonNodeFactory.instance.objectNode();
        ObjectNode db = req.putObject("Database");
        db.putArray("columns").add("name").add("model").add("connected").add("leader").add("index");
        db.putArray("where").add(JsonNodeFactory.instance.arrayNode().add("name").add("==").add(options.database()));
        return s.call("monitor_cond", options.requestTimeout(), SERVER_DB, SERVER_MONITOR_ID, req)
                .handle((reply, err) -> {
                    if (err != null) {
                        Throwable e = Futures.unwrap(err);
                        if (e instanceof RpcErrorException) {
                            // Servers before OVS 2.9 have no _Server database: nothing to check, and
                            // nothing says they send updates before replies, so writes use a barrier.
                            s.confirmation = WriteConfirmation.barrier(s, options.requestTimeout());
                            return true;
                        }
                        throw new CompletionException(e);
                    }
                    LOG.debug("{} _Server reply {}", s.remote, reply);
                    ServerCheck check = ServerCheck.fromUpdates2(reply, options.database(), null);
                    if (check == null) {
                        return false;
                    }
                    check.refusal(options.leaderOnly()).ifPresent(why -> {
                        throw new ConnectionRejectedException(s.remote + " " + why);
                    });
                    if (check.index().isPresent()) {
                        advanceIndex(s, check.index().getAsLong());
                    }
                    s.serverCheck = check;
                    return true;
                }).thenCompose(served -> served ? CompletableFuture.<Void>completedFuture(null) : notServed(s));
    }

    private synchronized void advanceIndex(Session s, long idx) {
        if (idx < maxIndexSeen) {
            throw new ConnectionRejectedException(s.remote + " is behind the cluster (log index " + idx
                    + " < " + maxIndexSeen + " already seen)");
        }
        maxIndexSeen = idx;
    }

    /** Fails the handshake for a server without the database, saying which databases it has (one more call, only then). */
    private CompletableFuture<Void> notServed(Session s) {
        return s.call("list_dbs", options.requestTimeout()).handle((dbs, err) -> {
            List<String> names = new ArrayList<>();
            if (dbs != null) {
                dbs.forEach(n -> names.add(n.asText()));
            }
            throw ConnectionRejectedException.permanent(s.remote + " does not serve database " + options.database()
                    + (names.isEmpty() ? "" : " (it serves " + String.join(", ", names) + ")"));
        });
    }
}
