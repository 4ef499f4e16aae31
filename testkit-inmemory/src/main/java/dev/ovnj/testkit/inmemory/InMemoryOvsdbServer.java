package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.ovsdb.rpc.RpcMessageDecoder;
import dev.ovnj.ovsdb.rpc.RpcMessageEncoder;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import dev.ovnj.ovsdb.wire.JsonFrameEncoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OVSDB server in this JVM that behaves as a standalone {@code ovsdb-server} 3.1 on every
 * socket-runnable case of Open vSwitch's own OVSDB test suites and on the project's differential
 * tests (docs/testing.md says exactly which): RFC 7047 {@code transact} with every operation and ovsdb-server's error texts, the commit
 * checks (referential integrity, garbage collection, maxRows, weak references, indexes),
 * {@code wait} with timeouts, {@code monitor}/{@code monitor_cond}/{@code monitor_cond_since}
 * (with a transaction history so a reconnecting client resumes), {@code monitor_cond_change},
 * {@code monitor_cancel}, locks, {@code echo}, {@code get_schema}, {@code list_dbs},
 * {@code set_db_change_aware} and the {@code _Server} database. It starts in milliseconds and
 * needs no OVS binaries, so unit tests can run anywhere.
 *
 * <p>It listens on TCP (127.0.0.1 and a free port unless told otherwise) and, on Linux, on a
 * unix socket. All state lives on one Netty event-loop thread, so requests are served in
 * arrival order and none blocks another. Fault hooks: {@link #dropConnections()} and
 * {@link #delay(Duration)} (or the same for one client through {@link #connections()}),
 * {@link #readOnly(boolean)} (writes then fail with ovsdb-server's "not allowed" error),
 * {@link #follower(boolean)} (the {@code _Server} rows say clustered, not leader),
 * {@link #pause()}/{@link #resume()}, {@link #stop()}/{@link #restart()}.
 *
 * <pre>{@code
 * try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start()) {
 *     OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).build();
 *     ...
 * }
 * }</pre>
 */
public final class InMemoryOvsdbServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InMemoryOvsdbServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final EventLoopGroup group;
    private final boolean epoll;
    private final ServerState state;
    private final String host;
    private final Path unixSocket;
    private final List<String> databaseNames;
    private volatile int port;
    private final List<Channel> listeners = new ArrayList<>();
    private volatile boolean paused;
    private final Duration inactivityProbe;

    private InMemoryOvsdbServer(Builder b, List<Database> dbs, Database serverDb) {
        this.epoll = Epoll.isAvailable();
        this.group = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        this.state = new ServerState(group.next(), dbs, serverDb, b.history);
        this.host = b.host;
        this.port = b.port;
        this.unixSocket = b.unixSocket;
        this.inactivityProbe = b.inactivityProbe;
        this.databaseNames = dbs.stream().map(Database::name).toList();
        if (unixSocket != null && !epoll) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new IllegalStateException("unix sockets need Netty's native epoll transport, which is not available here");
        }
    }

    /**
     * Starts a server with an empty OVN Northbound database on 127.0.0.1 and a free TCP port.
     *
     * @return the running server
     */
    public static InMemoryOvsdbServer start() {
        return builder().start();
    }

    /**
     * Returns a builder for other schemas, a fixed port, a unix socket or no transaction history.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The TCP remote clients use, e.g. {@code tcp:127.0.0.1:40123}.
     *
     * @return the remote
     */
    public String remote() {
        return "tcp:" + host + ":" + port;
    }

    /**
     * The TCP port.
     *
     * @return the port the server listens on
     */
    public int port() {
        return port;
    }

    /**
     * The {@code unix:PATH} remote, present when the builder asked for a unix socket.
     *
     * @return the unix remote, if any
     */
    public Optional<String> unixRemote() {
        return Optional.ofNullable(unixSocket).map(p -> "unix:" + p);
    }

    /**
     * The databases served, besides {@code _Server}, e.g. {@code [OVN_Northbound]}.
     *
     * @return the database names in schema order
     */
    public List<String> databaseNames() {
        return databaseNames;
    }

    /**
     * Whether the server is listening (false after {@link #stop()} or {@link #close()}).
     *
     * @return true while listening
     */
    public boolean isRunning() {
        synchronized (listeners) {
            return !listeners.isEmpty();
        }
    }

    /**
     * The client connections open now, for faults aimed at one client.
     *
     * @return a snapshot of the connections, in the order they were opened
     */
    public List<ClientConnection> connections() {
        return call(() -> state.sessions().stream().map(ConnectionHandler::handle).toList());
    }

    /** Closes every client connection now, as a crashed or restarted server would; data stays. */
    public void dropConnections() {
        call(() -> {
            state.sessions().forEach(ConnectionHandler::close);
            return null;
        });
    }

    /**
     * Delays every reply and notification by this much (zero to stop), as a slow or distant
     * server would; the order of messages is kept.
     *
     * @param delay the delay per message
     */
    public void delay(Duration delay) {
        state.delayMillis(delay.toMillis());
    }

    /**
     * Refuses (or again accepts) writes: every operation but select, wait, comment, assert and
     * abort fails with ovsdb-server's {@code "not allowed"} error, and lock requests fail as on a
     * read-only ovsdb-server.
     *
     * @param readOnly true to refuse writes
     */
    public void readOnly(boolean readOnly) {
        state.readOnly(readOnly);
    }

    /**
     * Pretends (or stops pretending) to be a RAFT follower that is not the leader: the
     * {@code _Server} rows then say model "clustered", leader false, with a cluster id and an
     * index, so clients that want the leader go elsewhere. Transactions still work, as a
     * follower forwards them.
     *
     * @param follower true to look like a follower
     */
    public void follower(boolean follower) {
        call(() -> {
            state.follower(follower);
            return null;
        });
    }

    /** Stops answering: connections stay open but nothing is read, as with a SIGSTOPped server. */
    public void pause() {
        paused = true;
        state.paused(true);
        call(() -> {
            state.sessions().forEach(ConnectionHandler::pauseReading);
            synchronized (listeners) {
                listeners.forEach(l -> l.config().setAutoRead(false));
            }
            return null;
        });
    }

    /** Answers again after {@link #pause()}. */
    public void resume() {
        paused = false;
        state.paused(false);
        call(() -> {
            state.sessions().forEach(ConnectionHandler::resumeReading);
            synchronized (listeners) {
                listeners.forEach(l -> l.config().setAutoRead(true));
            }
            return null;
        });
    }

    /** Stops listening and closes every connection; the data stays for {@link #restart()}. */
    public void stop() {
        if (group.isShuttingDown()) {
            return;
        }
        synchronized (listeners) {
            listeners.forEach(l -> l.close().awaitUninterruptibly());
            listeners.clear();
        }
        dropConnections();
        paused = false;
        state.paused(false);
    }

    /** Listens again on the same port (and unix socket) with the same data, after {@link #stop()}. */
    public void restart() {
        stop();
        bind();
    }

    /**
     * For logs and assertion messages: the remote, the databases and the state.
     *
     * @return e.g. {@code InMemoryOvsdbServer[tcp:127.0.0.1:40123, OVN_Northbound, running]}
     */
    @Override
    public String toString() {
        String st = group.isShuttingDown() ? "closed" : !isRunning() ? "stopped" : paused ? "paused" : "running";
        return "InMemoryOvsdbServer[" + remote() + ", " + String.join(",", databaseNames) + ", " + st + "]";
    }

    /** Stops the server and frees its thread. */
    @Override
    public void close() {
        if (group.isShuttingDown()) {
            return;
        }
        stop();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        LOG.debug("in-memory OVSDB server {} closed", remote());
    }

    private void bind() {
        ServerBootstrap tcp = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childHandler(initializer());
        Channel ch = tcp.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
        port = ((InetSocketAddress) ch.localAddress()).getPort();
        synchronized (listeners) {
            listeners.add(ch);
            if (unixSocket != null) {
                try {
                    Files.deleteIfExists(unixSocket);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                ServerBootstrap unix = new ServerBootstrap().group(group)
                        .channel(EpollServerDomainSocketChannel.class)
                        .childHandler(initializer());
                listeners.add(unix.bind(new DomainSocketAddress(unixSocket.toString())).syncUninterruptibly().channel());
            }
        }
        LOG.info("in-memory OVSDB server listening on {}{} ({})", remote(),
                unixRemote().map(u -> " and " + u).orElse(""), String.join(", ", databaseNames));
    }

    private ChannelInitializer<Channel> initializer() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (paused) {
                    ch.config().setAutoRead(false);
                }
                if (!inactivityProbe.isZero()) {
                    ch.pipeline().addLast(new IdleStateHandler(inactivityProbe.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
                }
                // Error replies are written as trees (ovsdb-server's own shape, no "result"), the rest as messages.
                ch.pipeline().addLast(new JsonFrameDecoder(FrameLimits.defaults()), new JsonFrameEncoder(),
                        new RpcMessageEncoder(), new RpcMessageDecoder(), new ConnectionHandler(state));
            }
        };
    }

    private <T> T call(Callable<T> task) {
        if (state.loop().inEventLoop()) {
            try {
                return task.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            return state.loop().submit(task).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("in-memory server did not complete a call: " + e, e);
        }
    }

    static JsonNode readSchema(InputStream in) throws IOException {
        return JSON.readTree(in);
    }

    /** Configures and starts an {@link InMemoryOvsdbServer}. */
    public static final class Builder {
        private final List<JsonNode> schemas = new ArrayList<>();
        private String host = "127.0.0.1";
        private int port;
        private Path unixSocket;
        private boolean history = true;
        private int historyLimit = 100;
        private Duration inactivityProbe = Duration.ofSeconds(5);

        private Builder() {
        }

        /**
         * Serves a database with this schema file; call again to serve several databases. Without
         * any, the server serves the bundled OVN Northbound schema.
         *
         * @param schemaFile an {@code .ovsschema} file
         * @return this builder
         */
        public Builder schema(Path schemaFile) {
            try (InputStream in = Files.newInputStream(schemaFile)) {
                schemas.add(readSchema(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read schema " + schemaFile, e);
            }
            return this;
        }

        /**
         * Serves a database with this schema, given as JSON text.
         *
         * @param schemaJson the schema
         * @return this builder
         */
        public Builder schemaJson(String schemaJson) {
            try {
                schemas.add(JSON.readTree(schemaJson));
            } catch (IOException e) {
                throw new IllegalArgumentException("schema is not JSON: " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * Listens on this address and TCP port (0, the default, picks a free port).
         *
         * @param address the address to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
         * @param tcpPort the port
         * @return this builder
         */
        public Builder tcp(String address, int tcpPort) {
            this.host = address;
            this.port = tcpPort;
            return this;
        }

        /**
         * Also listens on this unix socket (Linux, with Netty's native transport).
         *
         * @param path the socket file, replaced if it exists
         * @return this builder
         */
        public Builder unixSocket(Path path) {
            this.unixSocket = path;
            return this;
        }

        /**
         * Whether to keep a history of transactions for {@code monitor_cond_since} (default on,
         * kept and trimmed as a clustered ovsdb-server does: at most 100 transactions, and no
         * more atoms than the database holds). Off, the server answers as a standalone
         * ovsdb-server does: transaction ids are all zeros and every resume starts from scratch.
         *
         * @param enabled whether to keep history
         * @return this builder
         */
        public Builder history(boolean enabled) {
            this.history = enabled;
            return this;
        }

        /**
         * How long a connection may stay silent before the server sends it an echo request; as
         * long again without an answer and the server closes it. ovsdb-server's default, 5 s;
         * zero turns probing off.
         *
         * @param interval the idle interval
         * @return this builder
         */
        public Builder inactivityProbe(Duration interval) {
            this.inactivityProbe = interval;
            return this;
        }

        /**
         * Starts the server, listening when this returns.
         *
         * @return the running server
         * @throws IllegalArgumentException if a schema cannot be parsed
         */
        public InMemoryOvsdbServer start() {
            List<JsonNode> all = new ArrayList<>(schemas);
            try {
                if (all.isEmpty()) {
                    try (InputStream in = dev.ovnj.testkit.Schemas.class.getResourceAsStream("ovn-nb.ovsschema")) {
                        all.add(readSchema(in));
                    }
                }
                JsonNode serverSchema;
                try (InputStream in = InMemoryOvsdbServer.class.getResourceAsStream("_server.ovsschema")) {
                    serverSchema = readSchema(in);
                }
                List<Database> dbs = new ArrayList<>();
                for (JsonNode s : all) {
                    dbs.add(new Database(DatabaseSchema.parse(s), s, history ? historyLimit : 0));
                }
                Database serverDb = new Database(DatabaseSchema.parse(serverSchema), serverSchema, 0);
                InMemoryOvsdbServer server = new InMemoryOvsdbServer(this, dbs, serverDb);
                try {
                    server.bind();
                } catch (RuntimeException e) {
                    server.close();
                    throw e;
                }
                return server;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
