package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.cache.CacheInconsistencyException;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.OvsdbId;
import dev.ovnj.ovsdb.monitor.MonitorMethod;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.rpc.ConnectionClosedException;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.rpc.RpcErrorException;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcPipeline;
import dev.ovnj.ovsdb.rpc.SerialExecutor;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.CompatibilityReport;
import dev.ovnj.ovsdb.typed.DatabaseModel;
import dev.ovnj.ovsdb.typed.SchemaCompatibility;
import dev.ovnj.ovsdb.typed.SchemaMismatchException;
import dev.ovnj.ovsdb.wire.FrameLimits;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A monitor-driven OVSDB client for one database: it connects to one of its remotes (the leader,
 * for a cluster, unless told otherwise), replicates the monitored tables into a {@link RowCache},
 * runs transactions, and reconnects by itself, resuming with {@code monitor_cond_since} so that a
 * reconnect transfers only what changed.
 *
 * <p>Threads: Netty's event loop does I/O only. Cache updates, listener callbacks and the
 * completion of returned futures run on the client's single callback thread, in the order the
 * server sent them; a callback that blocks delays the cache, so hand long work elsewhere. Every
 * public method is asynchronous; the {@code ...AndWait} variants block the caller with a timeout.
 *
 * <p>Read-your-writes: a transaction's future completes only after the cache holds its effects.
 */
public final class OvsdbClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvsdbClient.class);
    private static final String SERVER_DB = "_Server";
    private static final String SERVER_MONITOR_ID = "ovnj-server";
    private static final String ZERO_TXN = "00000000-0000-0000-0000-000000000000";

    private final ClientOptions options;
    private final EventLoopGroup group;
    private final boolean epoll;
    private final EventLoop control;
    private final ExecutorService callbackThread;
    private final SerialExecutor callbacks;
    private final RowCache cache = new RowCache();
    private final List<ConnectionListener> connectionListeners = new CopyOnWriteArrayList<>();
    private final List<LockListener> lockListeners = new CopyOnWriteArrayList<>();
    private final Set<String> wantedLocks = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<OvsdbClient> firstSync = new CompletableFuture<>();
    private final String monitorId;
    private final java.util.Map<String, Side> sideMonitors = new ConcurrentHashMap<>();
    private final AtomicLong sideIds = new AtomicLong();

    private final AtomicLong connects = new AtomicLong();
    private final AtomicLong fullSyncs = new AtomicLong();
    private final AtomicLong resumedSyncs = new AtomicLong();
    private final AtomicLong lastSyncBytes = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong inconsistencies = new AtomicLong();
    private final AtomicLong sessionIds = new AtomicLong();

    // Confined to the control event loop.
    private int nextRemote;
    private int failuresThisRound;
    private int mismatchesThisRound;
    private Duration backoff;
    private boolean started;
    private long maxIndexSeen = -1;
    // Written on the callback thread, read on the control loop when reconnecting.
    private volatile String lastTxnId;
    private volatile Session current;
    private volatile ServerCheck serverCheck;
    private volatile CompatibilityReport compatibility;
    private volatile boolean closed;

    private OvsdbClient(ClientOptions options) {
        this.options = options;
        this.epoll = Epoll.isAvailable();
        this.group = epoll ? new EpollEventLoopGroup(1, new DefaultThreadFactory("ovnj-io", true))
                : new NioEventLoopGroup(1, new DefaultThreadFactory("ovnj-io", true));
        this.control = group.next();
        this.callbackThread = Executors.newSingleThreadExecutor(new DefaultThreadFactory("ovnj-callbacks", true));
        this.callbacks = new SerialExecutor(callbackThread);
        this.backoff = options.minBackoff();
        this.monitorId = "ovnj-" + options.database();
        if (options.remotes().stream().anyMatch(r -> r.kind() == Remote.Kind.UNIX) && !epoll) {
            throw new IllegalArgumentException("unix: remotes need Netty's native epoll transport, which is not available here");
        }
    }

    /**
     * Returns a builder.
     *
     * @return a builder with OVS-like defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts connecting. The future completes when the cache first holds the database; until then
     * the client keeps trying its remotes. It fails if the client is closed first, or, with a
     * {@link Compatibility#STRICT} model, with a {@link SchemaMismatchException} once every remote
     * of a round was refused for its schema; the client then stops connecting.
     *
     * @return a future of this client, synced
     */
    public CompletableFuture<OvsdbClient> start() {
        control.execute(() -> {
            if (!started && !closed) {
                started = true;
                connectNext();
            }
        });
        return firstSync;
    }

    /**
     * Starts and blocks until the first sync.
     *
     * @param timeout how long to wait
     * @return this client, synced
     * @throws NotConnectedException when no remote could be synced in time (the client keeps trying)
     */
    public OvsdbClient startAndWait(Duration timeout) {
        return await(start(), timeout, "first sync with " + options.remotes());
    }

    /**
     * The replicated cache of the monitored tables.
     *
     * @return the replicated cache of the monitored tables
     */
    public RowCache cache() {
        return cache;
    }

    /**
     * The options this client was built with.
     *
     * @return the options this client was built with
     */
    public ClientOptions options() {
        return options;
    }

    /**
     * The schema of the database as the connected server reported it.
     *
     * @return the schema
     * @throws NotConnectedException before the first connection
     */
    public DatabaseSchema schema() {
        DatabaseSchema s = cache.schema();
        if (s == null) {
            throw new NotConnectedException("no schema yet: the client has not connected to " + options.remotes());
        }
        return s;
    }

    /**
     * Starts a transaction on the current schema.
     *
     * @return a builder whose {@code build()} result goes to {@link #transact(Transaction)}
     */
    public Transaction.Builder transaction() {
        return Transaction.builder(schema());
    }

    /**
     * The result of checking the synced server's schema against the model given to
     * {@link Builder#model}; with {@link Compatibility#LENIENT} it lists what is disabled.
     *
     * @return the report of the last synced server, or empty without a model or before the first sync
     */
    public Optional<CompatibilityReport> compatibility() {
        return Optional.ofNullable(compatibility);
    }

    /**
     * Whether the client is connected and its cache synced right now.
     *
     * @return whether the client is connected and its cache synced right now
     */
    public boolean isSynced() {
        Session s = current;
        return s != null && s.synced;
    }

    /**
     * The remote of the current connection, if connected.
     *
     * @return the remote of the current connection, if connected
     */
    public Optional<Remote> connectedRemote() {
        Session s = current;
        return s == null ? Optional.empty() : Optional.of(s.remote);
    }

    /**
     * A snapshot of the connection counters.
     *
     * @return a snapshot of the connection counters
     */
    public ClientStats stats() {
        return new ClientStats(connects.get(), fullSyncs.get(), resumedSyncs.get(), lastSyncBytes.get(),
                transactions.get(), inconsistencies.get());
    }

    /**
     * Registers a connection listener.
     *
     * @param listener the listener
     */
    public void addConnectionListener(ConnectionListener listener) {
        connectionListeners.add(listener);
    }

    /**
     * Registers a lock listener.
     *
     * @param listener the listener
     */
    public void addLockListener(LockListener listener) {
        lockListeners.add(listener);
    }

    /**
     * Runs a transaction. The future completes once the server committed it and the cache holds
     * its effects. It fails with a {@link dev.ovnj.ovsdb.tx.TransactionException} (the server's
     * error, with the operation index), a {@link NotConnectedException} or
     * {@link ConnectionClosedException} (retriable; a transaction in flight when the connection
     * dropped is never resent, because it may have committed), or an
     * {@link dev.ovnj.ovsdb.rpc.RpcTimeoutException}.
     *
     * @param tx the transaction
     * @return the decoded result
     */
    public CompletableFuture<TransactionResult> transact(Transaction tx) {
        Session s = current;
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(new NotConnectedException(
                    "not connected to " + options.database() + " (connecting to " + options.remotes() + ")"));
        }
        CompletableFuture<TransactionResult> result = new CompletableFuture<>();
        s.rpc.call("transact", tx.toParams(), options.requestTimeout()).whenComplete((json, err) -> {
            if (err != null) {
                callbacks.execute(() -> result.completeExceptionally(unwrap(err)));
                return;
            }
            TransactionResult decoded;
            try {
                decoded = tx.decode((ArrayNode) json);
            } catch (RuntimeException e) {
                callbacks.execute(() -> result.completeExceptionally(e));
                return;
            }
            transactions.incrementAndGet();
            // The server sends a committed transaction's monitor update before it reads our next
            // request, so once this echo is answered every update of the commit has arrived; the
            // callback executor then orders completion after their application to the cache.
            s.call("echo", options.requestTimeout(), "ovnj-barrier").whenComplete((e, barrierErr) ->
                    callbacks.execute(() -> {
                        if (barrierErr != null) {
                            result.completeExceptionally(unwrap(barrierErr));
                        } else {
                            result.complete(decoded);
                        }
                    }));
        });
        return result;
    }

    /**
     * Runs a transaction and blocks for its result.
     *
     * @param tx the transaction
     * @param timeout how long to wait
     * @return the decoded result
     */
    public TransactionResult transactAndWait(Transaction tx, Duration timeout) {
        return await(transact(tx), timeout, "transaction");
    }

    /**
     * Sends any JSON-RPC request on the current connection, for methods this class does not wrap.
     *
     * @param method the method
     * @param params its parameters
     * @return the {@code result}
     */
    public CompletableFuture<JsonNode> call(String method, ArrayNode params) {
        Session s = current;
        if (s == null) {
            return CompletableFuture.failedFuture(new NotConnectedException("not connected"));
        }
        return onCallbacks(s.rpc.call(method, params, options.requestTimeout()));
    }

    /**
     * Asks for an OVSDB lock; it is requested again after every reconnect until {@link #unlock}.
     *
     * @param lockId the lock's name
     * @return true if granted at once; otherwise {@link LockListener#locked} fires when it is
     */
    public CompletableFuture<Boolean> lock(String lockId) {
        return reRequest("lock", lockId);
    }

    /**
     * Takes an OVSDB lock from whoever holds it.
     *
     * @param lockId the lock's name
     * @return true once held
     */
    public CompletableFuture<Boolean> steal(String lockId) {
        return reRequest("steal", lockId);
    }

    /**
     * ovsdb-server refuses a second lock or steal for an id this connection already requested
     * ("must issue unlock before new ..."), so an earlier request is withdrawn first.
     */
    private CompletableFuture<Boolean> reRequest(String method, String lockId) {
        try {
            OvsdbId.require("lock name", lockId);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        boolean earlier = !wantedLocks.add(lockId);
        if (!earlier) {
            return lockCall(method, lockId);
        }
        return lockCall("unlock", lockId).thenCompose(x -> lockCall(method, lockId));
    }

    /**
     * Releases (or stops waiting for) an OVSDB lock.
     *
     * @param lockId the lock's name
     * @return completes when the server acknowledged
     */
    public CompletableFuture<Void> unlock(String lockId) {
        wantedLocks.remove(lockId);
        return lockCall("unlock", lockId).thenApply(x -> null);
    }

    /**
     * Changes the {@code where} conditions of monitored tables without re-downloading the rest
     * ({@code monitor_cond_change}); the cache receives the rows that now match or no longer do.
     *
     * @param tables the new per-table monitors (only their conditions are used)
     * @return completes when the server accepted the change
     */
    public CompletableFuture<Void> changeConditions(TableMonitor... tables) {
        Session s = current;
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(new NotConnectedException("not connected"));
        }
        if (s.monitorMethod == MonitorMethod.MONITOR) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException(
                    s.remote + " supports only plain monitor; conditions cannot be changed"));
        }
        ObjectNode req = JsonNodeFactory.instance.objectNode();
        for (TableMonitor t : tables) {
            ArrayNode one = req.putArray(t.table());
            ObjectNode cond = one.addObject();
            ArrayNode where = t.whereJson(s.schema.table(t.table()));
            cond.set("where", where.isEmpty() ? JsonNodeFactory.instance.arrayNode().add(true) : where);
        }
        JsonNode id = JsonNodeFactory.instance.textNode(monitorId);
        return onCallbacks(s.call("monitor_cond_change", options.requestTimeout(), id, id, req)).thenApply(x -> null);
    }

    /**
     * Opens a second, independent monitor ({@code monitor_cond}) on the current connection. Its
     * updates go to {@code listener}, not to the cache; it ends with {@link SideMonitor#cancel()}
     * ({@code monitor_cancel}) or when the connection closes, and is not re-opened on reconnect.
     *
     * @param request what to monitor
     * @param listener receives the initial contents, then every change
     * @return the monitor, once the server accepted it and the initial contents were delivered
     */
    public CompletableFuture<SideMonitor> monitor(MonitorRequest request, SideMonitor.Listener listener) {
        Session s = current;
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(new NotConnectedException("not connected"));
        }
        String id = "ovnj-side-" + sideIds.incrementAndGet();
        Side side = new Side(id, s, listener);
        sideMonitors.put(id, side);
        ObjectNode requests = request.toJson(s.schema, true);
        CompletableFuture<SideMonitor> out = new CompletableFuture<>();
        s.call("monitor_cond", options.requestTimeout(), options.database(), JsonNodeFactory.instance.textNode(id), requests)
                .whenComplete((reply, err) -> callbacks.execute(() -> {
                    if (err != null) {
                        sideMonitors.remove(id);
                        side.ended.complete(null);
                        out.completeExceptionally(unwrap(err));
                        return;
                    }
                    try {
                        listener.onUpdate(UpdateBatch.fromUpdates2(reply, Optional.empty()));
                    } catch (RuntimeException e) {
                        LOG.warn("side monitor {} listener failed", id, e);
                    }
                    out.complete(side);
                }));
        s.rpc.closeFuture().thenRun(side::end);
        return out;
    }

    /** A side monitor's state; its listener runs on the callback thread. */
    private final class Side implements SideMonitor {
        private final String id;
        private final Session session;
        private final SideMonitor.Listener listener;
        private final CompletableFuture<Void> ended = new CompletableFuture<>();

        Side(String id, Session session, SideMonitor.Listener listener) {
            this.id = id;
            this.session = session;
            this.listener = listener;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public CompletableFuture<Void> cancel() {
            if (ended.isDone()) {
                return CompletableFuture.completedFuture(null);
            }
            return onCallbacks(session.call("monitor_cancel", options.requestTimeout(), JsonNodeFactory.instance.textNode(id)))
                    .thenRun(this::end);
        }

        @Override
        public CompletableFuture<Void> ended() {
            return ended;
        }

        void deliver(UpdateBatch batch) {
            if (!ended.isDone()) {
                listener.onUpdate(batch);
            }
        }

        void end() {
            sideMonitors.remove(id);
            ended.complete(null);
        }
    }

    /** Closes the connection and stops reconnecting; pending transactions fail as retriable. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Session s = current;
        if (s != null) {
            s.close();
        }
        firstSync.completeExceptionally(new NotConnectedException("client closed before it synced"));
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CLOSED, null, null));
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        callbackThread.shutdown();
        try {
            callbackThread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- connection state machine (control event loop) ----

    private void connectNext() {
        if (closed) {
            return;
        }
        List<Remote> remotes = options.remotes();
        Remote remote = remotes.get(nextRemote % remotes.size());
        nextRemote = (nextRemote + 1) % remotes.size();
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CONNECTING, remote, null));
        openSession(remote)
                .thenCompose(s -> handshake(s).whenComplete((ok, e) -> {
                    if (e != null) {
                        s.close();
                    }
                }))
                .whenCompleteAsync((session, err) -> {
                    if (err != null) {
                        attemptFailed(remote, lateTlsRefusal(remote, unwrap(err)));
                    }
                }, control);
    }

    /**
     * With TLS 1.3 the server checks the client's certificate after the client considers the
     * handshake done, so a refused certificate shows up as the connection closing during the first
     * request; it is reported like any other handshake failure, naming the certificate file.
     */
    private Throwable lateTlsRefusal(Remote remote, Throwable cause) {
        if (remote.kind() != Remote.Kind.SSL || !(cause instanceof ConnectionClosedException)) {
            return cause;
        }
        for (Throwable t = cause.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return new ConnectionRejectedException("TLS handshake with " + remote + " failed: "
                        + TlsFailures.describe(t, options.tls().orElseThrow()), t);
            }
        }
        return cause;
    }

    private void attemptFailed(Remote remote, Throwable cause) {
        if (closed) {
            return;
        }
        LOG.debug("connection attempt to {} failed", remote, cause);
        fire(ConnectionEvent.of(ConnectionEvent.Kind.DISCONNECTED, remote, cause));
        failuresThisRound++;
        if (cause instanceof SchemaMismatchException) {
            mismatchesThisRound++;
        }
        if (failuresThisRound < options.remotes().size()) {
            // As OVS does: one immediate try of every remote before backing off.
            connectNext();
            return;
        }
        // Retrying cannot help a first connection that every server refuses for its schema; once
        // synced, a refusal may be a rolling upgrade in progress, so the client keeps trying.
        if (mismatchesThisRound == options.remotes().size() && !firstSync.isDone()) {
            LOG.error("stopped connecting to {}: {}", options.remotes(), cause.getMessage());
            firstSync.completeExceptionally(cause);
            return;
        }
        failuresThisRound = 0;
        mismatchesThisRound = 0;
        long base = backoff.toMillis();
        long jittered = base == 0 ? 0 : base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
        backoff = min(backoff.multipliedBy(2), options.maxBackoff());
        if (backoff.isZero()) {
            backoff = options.maxBackoff();
        }
        LOG.info("no usable server among {} (last: {}); retrying in {} ms", options.remotes(), cause.toString(), jittered);
        control.schedule(this::connectNext, jittered, TimeUnit.MILLISECONDS);
    }

    private void sessionEnded(Session s, Throwable cause) {
        control.execute(() -> {
            if (current != s) {
                return;
            }
            current = null;
            if (closed) {
                return;
            }
            LOG.info("disconnected from {}: {}", s.remote, cause == null ? "closed" : cause.getMessage());
            fire(ConnectionEvent.of(ConnectionEvent.Kind.DISCONNECTED, s.remote, cause));
            failuresThisRound = 0;
            mismatchesThisRound = 0;
            connectNext();
        });
    }

    private CompletableFuture<Session> openSession(Remote remote) {
        CompletableFuture<Session> out = new CompletableFuture<>();
        SslContext ssl;
        try {
            ssl = remote.kind() == Remote.Kind.SSL ? options.tls().orElseThrow().newContext() : null;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        long id = sessionIds.incrementAndGet();
        Session[] holder = new Session[1];
        RpcConnection rpc = new RpcConnection(Runnable::run,
                n -> callbacks.execute(() -> onNotification(holder[0], n)), options.maxPendingRequests());
        Bootstrap b = new Bootstrap().group(group)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (ssl != null) {
                            ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc(), remote.host(), remote.port()));
                        }
                        RpcPipeline.configure(ch.pipeline(), options.frameLimits(), options.probeInterval(), rpc);
                    }
                });
        if (remote.kind() == Remote.Kind.UNIX) {
            b.channel(EpollDomainSocketChannel.class);
        } else {
            b.channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class);
            b.option(ChannelOption.TCP_NODELAY, true);
        }
        ChannelFuture cf = b.connect(remote.socketAddress());
        cf.addListener(f -> {
            if (!f.isSuccess()) {
                out.completeExceptionally(new ConnectionRejectedException("cannot connect to " + remote + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            Channel ch = cf.channel();
            Session s = new Session(id, remote, ch, rpc);
            holder[0] = s;
            rpc.closeFuture().thenAccept(cause -> sessionEnded(s, cause));
            SslHandler tls = ch.pipeline().get(SslHandler.class);
            if (tls == null) {
                out.complete(s);
                return;
            }
            tls.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    out.complete(s);
                } else {
                    ch.close();
                    out.completeExceptionally(new ConnectionRejectedException("TLS handshake with " + remote + " failed: "
                            + TlsFailures.describe(h.cause(), options.tls().orElseThrow()), h.cause()));
                }
            });
        });
        return out;
    }

    /** Server checks, schema, monitors: everything between an open socket and a synced cache. */
    private CompletableFuture<Session> handshake(Session s) {
        return checkServer(s)
                .thenCompose(x -> s.call("get_schema", options.requestTimeout(), options.database()))
                .thenCompose(schemaJson -> {
                    s.schema = DatabaseSchema.parse(schemaJson);
                    for (String missing : options.monitor().missingTables(s.schema)) {
                        LOG.warn("table {} is not in {}'s schema {}; it is not monitored", missing, s.remote,
                                s.schema.version().orElse("(no version)"));
                    }
                    options.model().ifPresent(model -> checkModel(s, model));
                    // Without this a server drops the connection when the schema changes (ovsdb-server(7)).
                    return s.call("set_db_change_aware", options.requestTimeout(), true)
                            .handle((ok, err) -> null);
                })
                .thenCompose(x -> monitor(s, MonitorMethod.MONITOR_COND_SINCE))
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
                        Throwable e = unwrap(err);
                        if (e instanceof RpcErrorException) {
                            // Servers before OVS 2.9 have no _Server database: nothing to check.
                            return null;
                        }
                        throw new CompletionException(e);
                    }
                    LOG.debug("{} _Server reply {}", s.remote, reply);
                    ServerCheck check = ServerCheck.fromUpdates2(reply, options.database(), null);
                    if (check == null) {
                        throw new ConnectionRejectedException(s.remote + " does not serve database " + options.database());
                    }
                    s.clustered = check.clustered();
                    if (check.clustered()) {
                        if (!check.connected()) {
                            throw new ConnectionRejectedException(s.remote + " is not connected to its cluster");
                        }
                        if (options.leaderOnly() && !check.leader()) {
                            throw new ConnectionRejectedException(s.remote + " is not the cluster leader");
                        }
                    }
                    serverCheck = check;
                    return check;
                })
                .thenComposeAsync(check -> {
                    if (check != null && check.index().isPresent()) {
                        long idx = check.index().getAsLong();
                        if (idx < maxIndexSeen) {
                            throw new ConnectionRejectedException(s.remote + " is behind the cluster (log index " + idx
                                    + " < " + maxIndexSeen + " already seen)");
                        }
                        maxIndexSeen = idx;
                    }
                    return CompletableFuture.completedFuture((Void) null);
                }, control);
    }

    private CompletableFuture<Void> monitor(Session s, MonitorMethod method) {
        boolean conditional = method.conditional();
        if (!conditional && options.monitor().conditional()) {
            return CompletableFuture.failedFuture(new ConnectionRejectedException(s.remote
                    + " supports only plain monitor, but the monitor request has where conditions"));
        }
        ObjectNode requests = options.monitor().toJson(s.schema, conditional);
        JsonNode id = JsonNodeFactory.instance.textNode(monitorId);
        String since = lastTxnId;
        long bytesBefore = s.bytesReceived();
        CompletableFuture<JsonNode> reply = method == MonitorMethod.MONITOR_COND_SINCE
                ? s.call(method.method(), options.requestTimeout(), options.database(), id, requests, since == null ? ZERO_TXN : since)
                : s.call(method.method(), options.requestTimeout(), options.database(), id, requests);
        s.monitorMethod = method;
        s.monitoredTables = options.monitor().resolve(s.schema).stream().map(TableMonitor::table).toList();
        CompletableFuture<Void> done = new CompletableFuture<>();
        reply.whenComplete((json, err) -> {
            if (err != null) {
                Throwable e = unwrap(err);
                if (e instanceof RpcErrorException rpcErr && "unknown method".equals(rpcErr.error()) && method.fallback() != null) {
                    LOG.info("{} does not support {}; falling back to {}", s.remote, method.method(), method.fallback().method());
                    monitor(s, method.fallback()).whenComplete((v, e2) -> {
                        if (e2 != null) {
                            done.completeExceptionally(e2);
                        } else {
                            done.complete(null);
                        }
                    });
                } else {
                    done.completeExceptionally(e);
                }
                return;
            }
            // Applied on the callback thread, in wire order with the notifications that follow.
            callbacks.execute(() -> {
                try {
                    applyInitial(s, method, json, bytesBefore);
                    done.complete(null);
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        });
        return done;
    }

    private void applyInitial(Session s, MonitorMethod method, JsonNode reply, long bytesBefore) {
        boolean resumed = false;
        UpdateBatch batch;
        switch (method) {
            case MONITOR_COND_SINCE -> {
                if (!reply.isArray() || reply.size() != 3) {
                    throw new dev.ovnj.ovsdb.monitor.MonitorProtocolException("monitor_cond_since reply is not [found, last-txn-id, updates]: " + abbreviate(reply));
                }
                resumed = reply.get(0).asBoolean();
                batch = UpdateBatch.fromUpdates2(reply.get(2), Optional.of(reply.get(1).asText()));
            }
            case MONITOR_COND -> batch = UpdateBatch.fromUpdates2(reply, Optional.empty());
            default -> batch = UpdateBatch.fromUpdates(reply, true);
        }
        boolean sameSchema = s.schema.equals(cache.schema());
        if (resumed && sameSchema) {
            cache.apply(batch);
            resumedSyncs.incrementAndGet();
        } else {
            cache.replace(s.schema, s.monitoredTables, batch);
            fullSyncs.incrementAndGet();
        }
        lastTxnId = batch.lastTxnId().filter(t -> !ZERO_TXN.equals(t)).orElse(null);
        lastSyncBytes.set(s.bytesReceived() - bytesBefore);
        s.synced = true;
        connects.incrementAndGet();
        control.execute(() -> {
            backoff = options.minBackoff();
            failuresThisRound = 0;
            mismatchesThisRound = 0;
        });
        compatibility = s.compatibility;
        current = s;
        // If the connection closed after the monitor reply but before this point, sessionEnded
        // ignored it (the session was not current yet); report it again so that the client
        // reconnects instead of staying "synced" on a dead connection. Both sides write before
        // they read (current here, the close future there), so one of them sees the other.
        if (s.rpc.closeFuture().isDone()) {
            sessionEnded(s, s.rpc.closeFuture().join());
        }
        LOG.info("connected to {} ({} {}, {} rows, {})", s.remote, options.database(),
                s.schema.version().orElse("?"), cache.size(), resumed ? "resumed with monitor_cond_since" : "full sync");
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CONNECTED, s.remote, null));
        fire(ConnectionEvent.of(ConnectionEvent.Kind.SYNCED, s.remote, null));
        for (String lock : wantedLocks) {
            lockCall("lock", lock).whenComplete((granted, err) -> {
                if (Boolean.TRUE.equals(granted)) {
                    lockListeners.forEach(l -> l.locked(lock));
                }
            });
        }
        firstSync.complete(this);
    }

    // ---- notifications (callback thread) ----

    private void onNotification(Session s, RpcNotification n) {
        if (s == null) {
            return;
        }
        ArrayNode p = n.params();
        try {
            switch (n.method()) {
                case "update3" -> {
                    if (isOurs(p)) {
                        String txn = p.get(1).asText();
                        cache.apply(UpdateBatch.fromUpdates2(p.get(2), Optional.of(txn)));
                        lastTxnId = txn;
                    }
                }
                case "update2" -> {
                    Side side = p.size() >= 2 ? sideMonitors.get(p.get(0).asText()) : null;
                    if (side != null) {
                        side.deliver(UpdateBatch.fromUpdates2(p.get(1), Optional.empty()));
                    } else if (p.size() >= 2 && SERVER_MONITOR_ID.equals(p.get(0).asText())) {
                        onServerUpdate(s, p.get(1));
                    } else if (isOurs(p)) {
                        cache.apply(UpdateBatch.fromUpdates2(p.get(1), Optional.empty()));
                    }
                }
                case "update" -> {
                    if (isOurs(p)) {
                        cache.apply(UpdateBatch.fromUpdates(p.get(1), false));
                    }
                }
                case "locked" -> lockListeners.forEach(l -> l.locked(p.get(0).asText()));
                case "stolen" -> lockListeners.forEach(l -> l.stolen(p.get(0).asText()));
                case "monitor_canceled" -> {
                    Side side = p.size() >= 1 ? sideMonitors.get(p.get(0).asText()) : null;
                    if (side != null) {
                        side.end();
                        return;
                    }
                    LOG.info("{} canceled the monitor (database changed or removed); resyncing", s.remote);
                    s.close();
                }
                default -> LOG.debug("ignoring notification {}", n.method());
            }
        } catch (CacheInconsistencyException e) {
            inconsistencies.incrementAndGet();
            LOG.warn("update from {} does not fit the cache ({}); dropping the connection to resync", s.remote, e.getMessage());
            lastTxnId = null;
            s.close();
        } catch (RuntimeException e) {
            LOG.warn("bad {} notification from {} ({}); dropping the connection to resync", n.method(), s.remote, e.getMessage());
            lastTxnId = null;
            s.close();
        }
    }

    private boolean isOurs(ArrayNode p) {
        return p.size() >= 2 && monitorId.equals(p.get(0).asText());
    }

    private void onServerUpdate(Session s, JsonNode updates) {
        ServerCheck check = ServerCheck.fromUpdates2(JsonNodeFactory.instance.objectNode().set("Database", updates.path("Database")),
                options.database(), serverCheck);
        if (check == null) {
            return;
        }
        serverCheck = check;
        if (check.clustered() && options.leaderOnly() && !check.leader()) {
            LOG.info("{} is no longer the cluster leader; reconnecting to the new leader", s.remote);
            fire(ConnectionEvent.of(ConnectionEvent.Kind.LEADER_CHANGED, s.remote, null));
            s.close();
        } else if (check.clustered() && !check.connected()) {
            LOG.info("{} lost its cluster connection; reconnecting", s.remote);
            s.close();
        }
    }

    // ---- helpers ----

    private CompletableFuture<Boolean> lockCall(String method, String lockId) {
        Session s = current;
        if (s == null) {
            return CompletableFuture.failedFuture(new NotConnectedException("not connected; the lock is requested on connect"));
        }
        return onCallbacks(s.call(method, options.requestTimeout(), lockId)).thenApply(r -> r.path("locked").asBoolean(false));
    }

    private <T> CompletableFuture<T> onCallbacks(CompletableFuture<T> f) {
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, e) -> callbacks.execute(() -> {
            if (e != null) {
                out.completeExceptionally(unwrap(e));
            } else {
                out.complete(v);
            }
        }));
        return out;
    }

    private void fire(ConnectionEvent event) {
        if (connectionListeners.isEmpty()) {
            return;
        }
        callbacks.execute(() -> connectionListeners.forEach(l -> {
            try {
                l.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn("connection listener failed", e);
            }
        }));
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static <T> T await(CompletableFuture<T> f, Duration timeout, String what) {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NotConnectedException(what + " did not complete within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotConnectedException("interrupted while waiting for " + what);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new CompletionException(cause);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String abbreviate(JsonNode n) {
        String s = String.valueOf(n);
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }

    /** Builds an {@link OvsdbClient}; defaults follow OVS (probe 5 s, leader-only, backoff up to 8 s). */
    public static final class Builder {
        private List<Remote> remotes = List.of();
        private String database = "OVN_Northbound";
        private TlsConfig tls;
        private boolean leaderOnly = true;
        private MonitorRequest monitor = MonitorRequest.allTables();
        private Duration probeInterval = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration minBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(8);
        private FrameLimits frameLimits = FrameLimits.defaults();
        private int maxPendingRequests = RpcConnection.DEFAULT_MAX_PENDING_REQUESTS;
        private DatabaseModel model;
        private Compatibility compatibility = Compatibility.LENIENT;

        private Builder() {
        }

        /**
         * Sets the remotes, comma-separated as OVS writes them.
         *
         * @param remotes e.g. {@code tcp:10.0.0.1:6641,tcp:10.0.0.2:6641,tcp:10.0.0.3:6641}
         * @return this builder
         */
        public Builder remotes(String remotes) {
            this.remotes = Remote.parseList(remotes);
            return this;
        }

        /**
         * Sets the database (default {@code OVN_Northbound}).
         *
         * @param name database name
         * @return this builder
         */
        public Builder database(String name) {
            this.database = name;
            return this;
        }

        /**
         * Sets TLS material for {@code ssl:} remotes.
         *
         * @param config key, certificate and CA
         * @return this builder
         */
        public Builder tls(TlsConfig config) {
            this.tls = config;
            return this;
        }

        /**
         * Whether to use only a cluster's leader (default true, as ovn-nbctl).
         *
         * @param leaderOnly false to accept any connected member
         * @return this builder
         */
        public Builder leaderOnly(boolean leaderOnly) {
            this.leaderOnly = leaderOnly;
            return this;
        }

        /**
         * Sets what to replicate (default every table).
         *
         * @param request the monitor request
         * @return this builder
         */
        public Builder monitor(MonitorRequest request) {
            this.monitor = request;
            return this;
        }

        /**
         * Sets the inactivity probe interval (default 5 s; zero disables).
         *
         * @param interval the interval
         * @return this builder
         */
        public Builder probeInterval(Duration interval) {
            this.probeInterval = interval;
            return this;
        }

        /**
         * Sets the bound on each request (default 30 s).
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * Sets the bound on each connection attempt (default 5 s).
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /**
         * Sets reconnect backoff bounds (default 100 ms to 8 s, doubled per round, with jitter).
         *
         * @param min first delay
         * @param max largest delay
         * @return this builder
         */
        public Builder backoff(Duration min, Duration max) {
            this.minBackoff = min;
            this.maxBackoff = max;
            return this;
        }

        /**
         * Sets bounds on incoming messages.
         *
         * @param limits size and nesting limits
         * @return this builder
         */
        public Builder frameLimits(FrameLimits limits) {
            this.frameLimits = limits;
            return this;
        }

        /**
         * Sets how many requests may be in flight per connection.
         *
         * @param max the limit
         * @return this builder
         */
        public Builder maxPendingRequests(int max) {
            this.maxPendingRequests = max;
            return this;
        }

        /**
         * Checks every server's schema against a typed model right after {@code get_schema}, see
         * {@link SchemaCompatibility}; the result is {@link OvsdbClient#compatibility()}.
         *
         * @param databaseModel the compiled model, of the same database as {@link #database}
         * @param mode {@link Compatibility#LENIENT} to connect anyway and disable what is
         *     missing, {@link Compatibility#STRICT} to refuse such a server
         * @return this builder
         */
        public Builder model(DatabaseModel databaseModel, Compatibility mode) {
            this.model = Objects.requireNonNull(databaseModel, "databaseModel");
            this.compatibility = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Builds the client; call {@link OvsdbClient#start()} to connect.
         *
         * @return the client
         */
        public OvsdbClient build() {
            return new OvsdbClient(new ClientOptions(remotes, database, Optional.ofNullable(tls), leaderOnly, monitor,
                    probeInterval, requestTimeout, connectTimeout, minBackoff, maxBackoff, frameLimits, maxPendingRequests,
                    Optional.ofNullable(model), compatibility));
        }
    }
}
