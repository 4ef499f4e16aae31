package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.CompatibilityReport;
import dev.ovnj.ovsdb.typed.DatabaseModel;
import dev.ovnj.ovsdb.typed.SchemaCompatibility;
import dev.ovnj.ovsdb.typed.SchemaMismatchException;
import dev.ovnj.ovsdb.FrameLimits;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A monitor-driven OVSDB client for one database: it connects to one of its remotes (the leader,
 * for a cluster, unless told otherwise; any relay connected to its source), replicates the
 * monitored tables into a {@link RowCache}, runs transactions, and reconnects by itself, resuming
 * with {@code monitor_cond_since} so that a reconnect transfers only what changed.
 *
 * <p>Threads: Netty's event loop does the I/O and the work that needs no cache: it parses the
 * JSON, matches replies to requests, answers {@code echo} and decodes transaction replies. Cache
 * updates, listener callbacks and the completion of returned futures run on the client's single
 * callback thread, in the order the server sent them; a callback that blocks delays the cache, so hand long work elsewhere. A
 * listener that throws is logged and counted; it never drops the connection or stops later
 * deliveries. Every public method is asynchronous; the {@code ...AndWait} variants block the caller
 * with a timeout.
 *
 * <p>Read-your-writes: a transaction's future completes only after the cache holds its effects.
 * ovsdb-server sends a transaction's monitor updates before its reply on the same connection
 * (standalone, cluster leader and follower, relay), so this costs no extra request; only a server
 * without a {@code _Server} database gets one {@code echo} barrier per burst of replies.
 *
 * <p>Remotes: the client tries them in the order given, each once per round. A cluster member is
 * used only while it is connected to its cluster and, with {@link Builder#leaderOnly(boolean)}
 * (the default), leader; a relay ({@link ServerModel#RELAY}) is used while it is connected to its
 * source. In a list that mixes relays and cluster members, put relays first for a client that
 * mostly reads and monitors (relays exist to take that load off the cluster; their writes take one
 * more hop), and cluster members first, or only, for a client that writes heavily or takes locks:
 * a lock taken on a relay is local to that relay and excludes nobody connected elsewhere.
 */
public final class OvsdbClient implements AutoCloseable {
    // Structure (not API): this class is the facade. ConnectionSupervisor owns reconnects,
    // Connector opens sessions, Handshake gates them, MonitorRegistry keeps every monitor and its
    // conditions across sessions, CacheFeed feeds the cache, LockManager keeps locks,
    // TransactionRunner runs transactions, and every listener call but the cache's passes through
    // one ListenerFence (the cache has its own; listenerFailures() adds both).
    private final ClientOptions options;
    private final EventLoopGroup group;
    private final CallbackThread callbacks = new CallbackThread();
    private final ListenerFence fence = new ListenerFence();
    private final RowCache rows = new RowCache();
    private final CacheFeed feed = new CacheFeed(rows);
    private final MonitorRegistry monitors;
    private final ConnectionSupervisor supervisor;
    private final LockManager locks;
    private final TransactionRunner transactions;
    private final CacheAudit audit;
    private final CompletableFuture<OvsdbClient> firstSync;
    private volatile CompatibilityReport compatibility;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean closed;

    private OvsdbClient(ClientOptions options) {
        this.options = options;
        boolean epoll = Epoll.isAvailable();
        if (options.remotes().stream().anyMatch(r -> r.kind() == Remote.Kind.UNIX) && !epoll) {
            throw new IllegalArgumentException("unix: remotes need Netty's native epoll transport, which is not available"
                    + " here: add io.netty:netty-transport-native-epoll (classifier linux-x86_64 or linux-aarch_64) to the classpath");
        }
        this.group = epoll ? new EpollEventLoopGroup(1, new DefaultThreadFactory("ovnj-io", true))
                : new NioEventLoopGroup(1, new DefaultThreadFactory("ovnj-io", true));
        this.monitors = new MonitorRegistry(options, callbacks, fence, feed);
        // The supervisor and the parts that need the current session are wired through the router.
        ConnectionSupervisor[] sup = new ConnectionSupervisor[1];
        this.locks = new LockManager(options, callbacks, fence, () -> sup[0].current());
        UpdateRouter router = new UpdateRouter(callbacks, feed, monitors, locks, (s, u) -> sup[0].onServerUpdate(s, u));
        Connector connector = new Connector(options, group, epoll, router::accept);
        this.supervisor = new ConnectionSupervisor(options, group.next(), connector, new Handshake(options), monitors, feed,
                callbacks, fence);
        sup[0] = supervisor;
        supervisor.onSynced(s -> compatibility = s.compatibility);
        supervisor.onSynced(locks::resume);
        supervisor.onSynced(monitors::reopenSides);
        this.transactions = new TransactionRunner(options, callbacks, supervisor::current, supervisor::gaveUp);
        this.audit = new CacheAudit(options, group.next(), callbacks, feed, monitors, supervisor::current);
        this.firstSync = supervisor.firstSync().thenApply(x -> this);
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
        if (!started.getAndSet(true)) {
            supervisor.start();
            audit.start();
        }
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
        Objects.requireNonNull(timeout, "timeout");
        try {
            return await(start(), timeout, "first sync with " + options.remotes());
        } catch (NotConnectedException e) {
            // The reason the connection did not come up (refused, no such database, TLS ...)
            // otherwise reaches only a connection listener.
            Throwable why = supervisor.lastFailure().orElse(null);
            if (why == null || e.getMessage().contains(String.valueOf(why.getMessage()))) {
                throw e;
            }
            throw new NotConnectedException(e.getMessage() + "; last attempt: " + why.getMessage(), why);
        }
    }

    /**
     * The replicated cache of the monitored tables.
     *
     * @return the replicated cache of the monitored tables
     */
    public RowCache cache() {
        return feed.cache();
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
        DatabaseSchema s = feed.cache().schema();
        if (s == null) {
            throw notConnected("no schema yet: the client has not connected to " + options.remotes());
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
        Session s = supervisor.current();
        return s != null && s.synced && s.isOpen();
    }

    /**
     * The client's state in words, for a health check or a log line: {@code synced with <remote>},
     * {@code connecting to [<remotes>]} (with the last attempt's failure, when there was one), the
     * reason it {@linkplain #gaveUp() gave up} ({@code gave up connecting to [...] (retrying cannot
     * help): ... does not serve database OVN_Northbound ...}), or {@code closed}. Never blocks.
     *
     * @return the state in words
     */
    public String availability() {
        if (closed) {
            return "closed";
        }
        Session s = supervisor.current();
        if (s != null && s.synced && s.isOpen()) {
            return "synced with " + s.remote;
        }
        Optional<GaveUp> gaveUp = supervisor.gaveUp();
        if (gaveUp.isPresent()) {
            return gaveUp.get().describe();
        }
        return "connecting to " + options.remotes() + supervisor.lastFailure()
                .map(e -> " (last attempt: " + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()) + ")").orElse("");
    }

    /**
     * Why the client stopped connecting for good, if it did: before its first sync every remote
     * refused it for a reason retrying cannot cure (e.g. it serves another database). A client
     * in this state never connects again; its transactions fail at once with a
     * {@link NotConnectedException} that is not {@linkplain NotConnectedException#retriable() retriable}
     * and names the reason. Never blocks.
     *
     * @return the reason and the remote, or empty while the client connects, is connected or retries
     */
    public Optional<GaveUp> gaveUp() {
        return supervisor.gaveUp();
    }

    /**
     * The remote of the current connection, if connected.
     *
     * @return the remote of the current connection, if connected
     */
    public Optional<Remote> connectedRemote() {
        Session s = supervisor.current();
        return s == null ? Optional.empty() : Optional.of(s.remote);
    }

    /**
     * How the connected server serves the database (standalone, cluster member or relay), as its
     * {@code _Server} database says.
     *
     * @return the model, or empty while not connected
     */
    public Optional<ServerModel> serverModel() {
        Session s = supervisor.current();
        return s == null ? Optional.empty() : Optional.of(s.model());
    }

    /**
     * A snapshot of the connection counters.
     *
     * @return a snapshot of the connection counters
     */
    public ClientStats stats() {
        return new ClientStats(supervisor.connects(), feed.fullSyncs(), feed.resumedSyncs(), feed.lastSyncBytes(),
                transactions.committed(), feed.inconsistencies(), audit.audits(), audit.divergences());
    }

    /** The cache audit, for tests that look at more than {@link #stats()} says. */
    CacheAudit cacheAudit() {
        return audit;
    }

    /**
     * How many listener calls (cache, connection, lock, side monitor) threw. Each was logged and the
     * client carried on.
     *
     * @return the count since the client was built
     */
    public long listenerFailures() {
        return fence.failures() + rows.listenerFailures();
    }

    /**
     * Registers a connection listener.
     *
     * @param listener the listener
     */
    public void addConnectionListener(ConnectionListener listener) {
        supervisor.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Unregisters a connection listener; it is not called after this returns, except for a call
     * already running on the callback thread.
     *
     * @param listener the listener
     * @return whether it was registered
     */
    public boolean removeConnectionListener(ConnectionListener listener) {
        return supervisor.removeListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Registers a lock listener.
     *
     * @param listener the listener
     */
    public void addLockListener(LockListener listener) {
        locks.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Unregisters a lock listener, e.g. when the component that owns a lock shuts down; it is not
     * called after this returns, except for a call already running on the callback thread.
     *
     * @param listener the listener
     * @return whether it was registered
     */
    public boolean removeLockListener(LockListener listener) {
        return locks.removeListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Runs a transaction. The future completes once the server committed it and the cache holds
     * its effects. It fails with a {@link dev.ovnj.ovsdb.tx.TransactionException} (the server's
     * error, with the operation index), a {@link NotConnectedException} or
     * {@link dev.ovnj.ovsdb.ConnectionClosedException} (retriable: the connection dropped
     * before the reply, and a transaction in flight is never resent, because it may have
     * committed), a {@link CommitUnconfirmedException} (not retriable: the server replied that it
     * committed, but the connection failed before the cache was confirmed to hold it), or an
     * {@link dev.ovnj.ovsdb.RpcTimeoutException}.
     *
     * @param tx the transaction
     * @return the decoded result
     */
    public CompletableFuture<TransactionResult> transact(Transaction tx) {
        return transactions.transact(Objects.requireNonNull(tx, "tx"));
    }

    /**
     * Runs a transaction and blocks for its result.
     *
     * @param tx the transaction
     * @param timeout how long to wait
     * @return the decoded result
     */
    public TransactionResult transactAndWait(Transaction tx, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
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
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
        Session s = supervisor.current();
        if (s == null) {
            return CompletableFuture.failedFuture(notConnected("not connected"));
        }
        return callbacks.follow(s.rpc.call(method, params, options.requestTimeout()));
    }

    /**
     * Asks for an OVSDB lock; it is requested again after every reconnect until {@link #unlock}.
     *
     * @param lockId the lock's name, an OVSDB {@code <id>}
     * @return true if granted at once; otherwise {@link LockListener#locked} fires when it is
     * @throws IllegalArgumentException when {@code lockId} is not an {@code <id>}
     */
    public CompletableFuture<Boolean> lock(String lockId) {
        return locks.lock(Objects.requireNonNull(lockId, "lockId"));
    }

    /**
     * Takes an OVSDB lock from whoever holds it.
     *
     * @param lockId the lock's name, an OVSDB {@code <id>}
     * @return true once held
     * @throws IllegalArgumentException when {@code lockId} is not an {@code <id>}
     */
    public CompletableFuture<Boolean> steal(String lockId) {
        return locks.steal(Objects.requireNonNull(lockId, "lockId"));
    }

    /**
     * Releases (or stops waiting for) an OVSDB lock.
     *
     * @param lockId the lock's name
     * @return completes when the server acknowledged
     */
    public CompletableFuture<Void> unlock(String lockId) {
        return locks.unlock(Objects.requireNonNull(lockId, "lockId"));
    }

    /**
     * Changes the {@code where} conditions of monitored tables without re-downloading the rest
     * ({@code monitor_cond_change}); the cache receives the rows that now match or no longer do.
     * From this call on, the new conditions are also what every later connection monitors. If the
     * connection drops before the server answered, the future fails and the next connection
     * monitors them from a full snapshot (whether the old server applied them is unknown), so the
     * cache never mixes the two; only a server that refuses them leaves the old ones in place.
     *
     * @param tables the new per-table monitors (only their conditions are used)
     * @return completes when the server accepted the change
     */
    public CompletableFuture<Void> changeConditions(TableMonitor... tables) {
        List<TableMonitor> list = List.of(Objects.requireNonNull(tables, "tables"));
        Session s = supervisor.current();
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(notConnected("not connected"));
        }
        return monitors.changeConditions(s, list);
    }

    /**
     * Opens a second, independent monitor on the current connection. Its updates go to
     * {@code listener}, not to the cache. It survives reconnects: on every new connection it is
     * opened again with {@code monitor_cond_since} from the last transaction it saw, so the listener
     * receives only what changed meanwhile; when the new server cannot resume, the listener
     * receives the full contents again as rows of kind {@code INITIAL}, which replace what it had.
     * It ends with {@link SideMonitor#cancel()}, when the client closes, or when a new server
     * refuses it.
     *
     * @param request what to monitor
     * @param listener receives the initial contents, then every change
     * @return the monitor, once the server accepted it and the initial contents were delivered
     */
    public CompletableFuture<SideMonitor> monitor(MonitorRequest request, SideMonitor.Listener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        Session s = supervisor.current();
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(notConnected("not connected"));
        }
        return monitors.openSide(s, request, listener);
    }

    /**
     * Closes the connection and stops reconnecting; pending transactions fail as retriable, side
     * monitors end. When it returns (within milliseconds), every thread of the client has ended:
     * its I/O event loop is shut down without a quiet period and waited for, its callback thread
     * stopped. What may outlive it by up to a second is Netty's {@code globalEventExecutor}
     * thread, shared by every Netty user of the JVM, which reports that an event loop ended and
     * then ends by itself after a second of nothing to do; it is not a daemon, so a JVM left to end
     * by itself (without {@link System#exit(int)}) ends that second later. Idempotent.
     */
    @Override
    public void close() {
        shutDown();
    }

    /**
     * The same as {@link #close()}, which no longer waits for Netty's shared thread.
     *
     * @deprecated use {@link #close()}: it returns as soon as the client's own threads ended, as this did
     */
    @Deprecated(since = "0.1.0")
    public void closeBeforeExit() {
        shutDown();
    }

    /** Why there is no connection: the given words, or the reason the client gave up connecting. */
    private NotConnectedException notConnected(String words) {
        return supervisor.gaveUp().map(NotConnectedException::gaveUp).orElseGet(() -> new NotConnectedException(words));
    }

    /** Stops everything of this client's own; false when it was closed already. */
    private boolean shutDown() {
        if (closed) {
            return false;
        }
        closed = true;
        audit.close();
        supervisor.close();
        monitors.endAll();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        // Each loop's own termination, not the group's: Netty completes the group's future from a
        // listener on its shared thread, which may be busy with other clients' work.
        for (EventExecutor loop : group) {
            loop.terminationFuture().syncUninterruptibly();
        }
        callbacks.close();
        return true;
    }

    /**
     * For logs and assertion messages: the database, the remotes and the state.
     *
     * @return e.g. {@code OvsdbClient[OVN_Northbound, tcp:10.0.0.1:6641,tcp:10.0.0.2:6641, synced with tcp:10.0.0.2:6641]}
     */
    @Override
    public String toString() {
        String state;
        if (closed) {
            state = "closed";
        } else if (!started.get()) {
            state = "not started";
        } else {
            Optional<Remote> at = connectedRemote();
            state = at.map(r -> (isSynced() ? "synced with " : "connected to ") + r).orElse("connecting");
        }
        return "OvsdbClient[" + options.database() + ", "
                + String.join(",", options.remotes().stream().map(Remote::toString).toList()) + ", " + state + "]";
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
            Throwable cause = Futures.unwrap(e);
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new CompletionException(cause);
        }
    }

    /** Builds an {@link OvsdbClient}; defaults follow OVS (probe 5 s, leader-only, backoff up to 8 s). */
    public static final class Builder {
        /** The default mean period of the cache audit: 5 minutes. */
        public static final Duration DEFAULT_CACHE_AUDIT = Duration.ofMinutes(5);
        /** The default bound on each request: 30 seconds. */
        public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

        private List<Remote> remotes = List.of();
        private String database = "OVN_Northbound";
        private TlsConfig tls;
        private boolean leaderOnly = true;
        private MonitorRequest monitor = MonitorRequest.allTables();
        private Duration probeInterval = Duration.ofSeconds(5);
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration minBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(8);
        private FrameLimits frameLimits = FrameLimits.defaults();
        private int maxPendingRequests = RpcConnection.DEFAULT_MAX_PENDING_REQUESTS;
        private DatabaseModel model;
        private Compatibility compatibility = Compatibility.LENIENT;
        private Duration cacheAudit = DEFAULT_CACHE_AUDIT;

        private Builder() {
        }

        /**
         * Sets the remotes, comma-separated as OVS writes them.
         *
         * @param remotes e.g. {@code tcp:10.0.0.1:6641,tcp:10.0.0.2:6641,tcp:10.0.0.3:6641}
         * @return this builder
         */
        public Builder remotes(String remotes) {
            Objects.requireNonNull(remotes, "remotes");
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
            Objects.requireNonNull(name, "name");
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
            Objects.requireNonNull(request, "request");
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
            Objects.requireNonNull(interval, "interval");
            this.probeInterval = interval;
            return this;
        }

        /**
         * Sets the bound on each request (default {@link #DEFAULT_REQUEST_TIMEOUT}, 30 s).
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
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
            Objects.requireNonNull(timeout, "timeout");
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
            Objects.requireNonNull(min, "min");
            Objects.requireNonNull(max, "max");
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
            Objects.requireNonNull(limits, "limits");
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
         * Sets the mean period of the cache audit (default {@link #DEFAULT_CACHE_AUDIT}; each
         * period is jittered by up to a quarter either way, so that clients started together do
         * not audit together). An audit opens a short-lived monitor like the main one (same
         * tables, columns and conditions), cancels it once its initial contents arrived, and
         * compares them with the cache at the same point of the update stream; a divergence (confirmed by a second audit at once) is counted in
         * {@link ClientStats#cacheDivergences()}, logged in one line and healed by a resync.
         *
         * @param period the mean period; {@link Duration#ZERO} disables the audit
         * @return this builder
         */
        public Builder cacheAudit(Duration period) {
            // Checked by ClientOptions when built.
            this.cacheAudit = period;
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
                    Optional.ofNullable(model), compatibility, cacheAudit));
        }
    }
}
