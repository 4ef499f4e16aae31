package dev.ovnj.testkit;

import dev.ovnj.testkit.tls.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real {@code ovsdb-server} process listening on 127.0.0.1, with its database, log and control
 * socket in a private directory. Made with {@link #builder()} (or {@link #start()} for an empty OVN
 * Northbound database on TCP). The process belongs to this object: {@link #close()} ends it and
 * removes the directory, and a JVM shutdown hook kills it if the test forgets.
 *
 * <p>Built with {@link Builder#inMemory(boolean)} (or run with the system property
 * {@code ovnj.testkit.inMemory=true}) the same object fronts an in-memory server from the
 * {@code testkit-inmemory} module instead of a process, unless the test asks for something only a
 * process has (TLS, an existing database file, raw arguments). Then stop, kill and restart keep
 * the data in memory, pause stops reading, and {@link #pid()}, {@link #appctl} and
 * {@link #databaseFile()} fail because there is no process or file.
 *
 * <p>Faults: {@link #kill()} (SIGKILL), {@link #pause()}/{@link #resume()} (SIGSTOP/SIGCONT, so a
 * client's echo goes unanswered while the socket stays open), {@link #stop()} then
 * {@link #restart()} with the same database file and the same ports.
 */
public final class OvsdbServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvsdbServer.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path dir;
    private final Path database;
    private final String databaseName;
    private final int port;
    private final Path unixSocket;
    private final int sslPort;
    private final TestCertificates certificates;
    private final List<String> extraArgs;
    private final boolean ownsDirectory;
    private final DaemonProcess daemon;
    private final InMemoryBackend memory;

    private OvsdbServer(Builder b, Path dir, Path database, String databaseName) {
        this(b, dir, database, databaseName, null);
    }

    private OvsdbServer(Builder b, Path dir, Path database, String databaseName, InMemoryBackend memory) {
        this.memory = memory;
        this.dir = dir;
        this.database = database;
        this.databaseName = databaseName;
        // Client and SSL ports picked together, so they cannot come out equal.
        int[] free = FreePorts.distinct(2);
        this.port = b.port > 0 ? b.port : free[0];
        this.unixSocket = b.unixSocket ? dir.resolve("db.sock") : null;
        this.sslPort = b.ssl ? (free[1] == b.port ? free[0] : free[1]) : 0;
        this.certificates = b.ssl ? TestCertificates.generate(dir.resolve("pki")) : null;
        this.extraArgs = List.copyOf(b.extraArgs);
        this.ownsDirectory = b.directory == null;
        this.daemon = new DaemonProcess("ovsdb-server", dir, "ovsdb-server.log", "ovnj-ovsdb-server-reaper");
    }

    /**
     * Starts a server with an empty OVN Northbound database (the bundled 7.0.0 schema) on TCP.
     *
     * @return the running server
     */
    public static OvsdbServer start() {
        return builder().start();
    }

    /**
     * Returns a builder for a server with custom schema, extra remotes or an existing database.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The TCP remote clients use, e.g. {@code tcp:127.0.0.1:40123}.
     *
     * @return the TCP remote clients use, e.g. {
     */
    public String remote() {
        return "tcp:127.0.0.1:" + port;
    }

    /**
     * The TCP port on 127.0.0.1.
     *
     * @return the TCP port on 127.0.0.1
     */
    public int port() {
        return port;
    }

    /**
     * The {@code unix:PATH} remote, present when the builder asked for a unix socket.
     *
     * @return the {
     */
    public Optional<String> unixRemote() {
        return Optional.ofNullable(unixSocket).map(p -> "unix:" + p);
    }

    /**
     * The {@code ssl:127.0.0.1:PORT} remote, present when the builder asked for TLS.
     *
     * @return the {
     */
    public Optional<String> sslRemote() {
        return sslPort == 0 ? Optional.empty() : Optional.of("ssl:127.0.0.1:" + sslPort);
    }

    /**
     * The certificates the TLS remote uses (and a client certificate signed by the same CA).
     *
     * @return the certificates the TLS remote uses (and a client certificate signed by the same CA)
     */
    public Optional<TestCertificates> certificates() {
        return Optional.ofNullable(certificates);
    }

    /**
     * Name of the database this server serves, e.g. {@code OVN_Northbound}.
     *
     * @return name of the database this server serves, e.g. {
     */
    public String databaseName() {
        return databaseName;
    }

    /**
     * The database file, kept across {@link #restart()}.
     *
     * @return the database file, kept across {
     */
    public Path databaseFile() {
        if (memory != null) {
            throw new TestkitException("an in-memory server has no database file");
        }
        return database;
    }

    /**
     * The directory holding the database, log and sockets.
     *
     * @return the directory holding the database, log and sockets
     */
    public Path directory() {
        return dir;
    }

    /**
     * The path of the server's control socket, for {@code ovs-appctl -t}.
     *
     * @return the path of the server's control socket, for {
     */
    public Path controlSocket() {
        return dir.resolve("ovsdb-server.ctl");
    }

    /**
     * The process id of the running server.
     *
     * @return the pid
     * @throws TestkitException when the server is not running
     */
    public long pid() {
        if (memory != null) {
            throw new TestkitException("an in-memory server has no process");
        }
        return daemon.pid();
    }

    /**
     * Returns true while the server process is alive (also when paused).
     *
     * @return returns true while the server process is alive (also when paused)
     */
    public boolean isRunning() {
        if (memory != null) {
            return memory.isRunning();
        }
        return daemon.isRunning();
    }

    /**
     * The server's log so far (its log file and anything it printed).
     *
     * @return the server's log so far (its log file and anything it printed)
     */
    public String log() {
        return daemon.log();
    }

    /**
     * Runs {@code ovs-appctl} against this server's control socket.
     *
     * @param args the command and its arguments, e.g. {@code "cluster/status", "OVN_Northbound"}
     * @return what it printed
     */
    public String appctl(String... args) {
        if (memory != null) {
            throw new TestkitException("an in-memory server has no control socket for ovs-appctl");
        }
        return DaemonProcess.appctl("ovs-appctl", controlSocket(), args);
    }

    /** Ends the server gracefully (SIGTERM) and waits for it; the database file stays. */
    public synchronized void stop() {
        if (memory != null) {
            memory.stop();
            return;
        }
        if (daemon.stop()) {
            LOG.info("ovsdb-server {} stopped", remote());
        }
    }

    /** Kills the server with SIGKILL, as a crash would; the database file stays. */
    public synchronized void kill() {
        if (memory != null) {
            memory.stop();
            return;
        }
        if (daemon.kill()) {
            LOG.info("ovsdb-server {} killed", remote());
        }
    }

    /** Freezes the server with SIGSTOP: connections stay open but nothing is answered. */
    public synchronized void pause() {
        if (memory != null) {
            memory.pause();
            return;
        }
        daemon.pause();
    }

    /** Thaws a paused server with SIGCONT. */
    public synchronized void resume() {
        if (memory != null) {
            memory.resume();
            return;
        }
        daemon.resume();
    }

    /**
     * Starts the server again on the same ports with the same database file (after
     * {@link #stop()} or {@link #kill()}; a running server is stopped first).
     */
    public synchronized void restart() {
        if (memory != null) {
            memory.restart();
            return;
        }
        stop();
        launch();
    }

    /**
     * For logs and assertion messages: the remote, the database and whether it runs.
     *
     * @return e.g. {@code OvsdbServer[tcp:127.0.0.1:40123, OVN_Northbound, running]}
     */
    @Override
    public String toString() {
        return "OvsdbServer[" + remote() + ", " + databaseName + ", " + (memory != null ? "in-memory, " : "")
                + (isRunning() ? "running" : "stopped") + "]";
    }

    /** Kills the server and removes its directory (unless the caller supplied the directory). */
    @Override
    public synchronized void close() {
        if (memory != null) {
            memory.close();
        } else {
            kill();
        }
        daemon.close(ownsDirectory);
    }

    synchronized void launch() {
        List<String> argv = new ArrayList<>(List.of("ovsdb-server", database.toString(),
                "--remote=ptcp:" + port + ":127.0.0.1",
                "--unixctl=" + controlSocket(),
                "--log-file=" + dir.resolve("ovsdb-server.log"),
                "-vconsole:off", "-vfile:info", "--no-chdir",
                "--pidfile=" + dir.resolve("ovsdb-server.pid")));
        if (unixSocket != null) {
            argv.add("--remote=punix:" + unixSocket);
        }
        if (certificates != null) {
            argv.add("--remote=pssl:" + sslPort + ":127.0.0.1");
            argv.add("--private-key=" + certificates.serverKey());
            argv.add("--certificate=" + certificates.serverCert());
            argv.add("--ca-cert=" + certificates.caCert());
        }
        argv.addAll(extraArgs);
        daemon.launch(argv, " (scripts/install-ovs.sh installs it)");
        awaitAnswering();
        LOG.info("ovsdb-server {} started (pid {}, database {})", remote(), daemon.pid(), databaseName);
    }

    /**
     * Waits until the server answers {@code list_dbs} on its TCP remote. A process that exits
     * first fails with its log, so a bad schema or a taken port is reported, not waited out.
     */
    private void awaitAnswering() {
        if (!daemon.awaitReady(START_TIMEOUT, 20, this::answersListDbs)) {
            daemon.killQuietly();
            throw new TestkitException("ovsdb-server did not answer on " + remote() + " within " + START_TIMEOUT + ":\n" + log());
        }
    }

    private boolean answersListDbs() {
        return DaemonProcess.jsonRpcReply(port, "{\"id\":0,\"method\":\"list_dbs\",\"params\":[]}",
                r -> r.indexOf("\"result\"") >= 0 && r.indexOf(databaseName) >= 0).isPresent();
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** System property that makes every {@link Builder} default to an in-memory server. */
    public static final String IN_MEMORY_PROPERTY = "ovnj.testkit.inMemory";

    /** Configures and starts an {@link OvsdbServer}. */
    public static final class Builder {
        private Path schema;
        private Path existingDatabase;
        private Path directory;
        private int port;
        private boolean unixSocket;
        private boolean ssl;
        private final List<String> extraArgs = new ArrayList<>();
        private boolean inMemory = Boolean.getBoolean(IN_MEMORY_PROPERTY);

        private Builder() {
        }

        /**
         * Runs the server in this JVM (the {@code testkit-inmemory} module must be on the class
         * path) instead of as an ovsdb-server process. The default comes from the system property
         * {@value OvsdbServer#IN_MEMORY_PROPERTY}. TLS, an existing database file or extra
         * arguments still get a process.
         *
         * @param enabled whether to use the in-memory server
         * @return this builder
         */
        public Builder inMemory(boolean enabled) {
            this.inMemory = enabled;
            return this;
        }

        /**
         * Creates the database from this schema file instead of the bundled OVN Northbound one.
         *
         * @param schemaFile an {@code .ovsschema} file
         * @return this builder
         */
        public Builder schema(Path schemaFile) {
            this.schema = schemaFile;
            return this;
        }

        /**
         * Serves an existing database file (standalone or clustered) instead of creating one.
         *
         * @param databaseFile the file, used in place
         * @return this builder
         */
        public Builder database(Path databaseFile) {
            this.existingDatabase = databaseFile;
            return this;
        }

        /**
         * Keeps the server's files in this directory (which then survives {@link #close()}).
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder directory(Path dir) {
            this.directory = dir;
            return this;
        }

        /**
         * Listens on this TCP port instead of a free one.
         *
         * @param tcpPort the port on 127.0.0.1
         * @return this builder
         */
        public Builder port(int tcpPort) {
            this.port = tcpPort;
            return this;
        }

        /**
         * Also listens on a unix socket in the server's directory.
         *
         * @param enabled whether to add {@code punix:}
         * @return this builder
         */
        public Builder unixSocket(boolean enabled) {
            this.unixSocket = enabled;
            return this;
        }

        /**
         * Also listens on a {@code pssl:} remote with certificates generated for this server.
         *
         * @param enabled whether to add {@code pssl:}
         * @return this builder
         */
        public Builder ssl(boolean enabled) {
            this.ssl = enabled;
            return this;
        }

        /**
         * Adds raw ovsdb-server arguments.
         *
         * @param args arguments appended to the command line
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            extraArgs.addAll(List.of(args));
            return this;
        }

        /**
         * Creates the database if needed and starts the server, waiting until it answers.
         *
         * @return the running server
         */
        public OvsdbServer start() {
            if (inMemory && !ssl && existingDatabase == null && extraArgs.isEmpty()) {
                return startInMemory();
            }
            try {
                Path dir = directory != null ? Files.createDirectories(directory) : Files.createTempDirectory("ovnj-ovsdb-");
                Path db = existingDatabase;
                if (db == null) {
                    Path schemaFile = schema != null ? schema : Schemas.ovnNorthbound(dir);
                    db = dir.resolve("db");
                    Command.of("ovsdb-tool", "create", db.toString(), schemaFile.toString()).check();
                }
                String name = Command.of("ovsdb-tool", "db-name", db.toString()).check().trim();
                OvsdbServer server = new OvsdbServer(this, dir, db, name);
                try {
                    server.launch();
                } catch (RuntimeException e) {
                    server.close();
                    throw e;
                }
                return server;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private OvsdbServer startInMemory() {
            InMemoryBackend.Factory factory = java.util.ServiceLoader.load(InMemoryBackend.Factory.class).findFirst()
                    .orElseThrow(() -> new TestkitException("an in-memory server was asked for but dev.ovnj:testkit-inmemory "
                            + "is not on the class path; add it as a test dependency"));
            try {
                Path dir = directory != null ? Files.createDirectories(directory) : Files.createTempDirectory("ovnj-inmem-");
                int tcpPort = port > 0 ? port : FreePorts.next();
                Optional<Path> socket = unixSocket ? Optional.of(dir.resolve("db.sock")) : Optional.empty();
                InMemoryBackend backend = factory.start(Optional.ofNullable(schema), tcpPort, socket);
                port = tcpPort;
                return new OvsdbServer(this, dir, dir.resolve("db"), backend.databaseName(), backend);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
