package dev.ovnj.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real {@code ovsdb-server} in relay mode ({@code ovsdb-server relay:DB:SOURCE}) on 127.0.0.1:
 * it keeps a copy of its source's database (a standalone server or a RAFT cluster, given as a
 * comma-separated remote list), serves reads and monitors itself and forwards transactions to the
 * source. Its {@code _Server} row says {@code model=relay}. Started with {@link #start(String)} or
 * {@link #builder()}; {@link #close()} kills it and removes its directory, and a JVM shutdown hook
 * kills it if the test forgets. Start returns once the relay is connected to its source.
 */
public final class OvsdbRelay implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvsdbRelay.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path dir;
    private final String source;
    private final String databaseName;
    private final int port;
    private final List<String> extraArgs;
    private final DaemonProcess daemon;

    private OvsdbRelay(Builder b, Path dir) {
        this.dir = dir;
        this.source = b.source;
        this.databaseName = b.database;
        this.port = FreePorts.next();
        this.extraArgs = List.copyOf(b.extraArgs);
        this.daemon = new DaemonProcess("ovsdb relay", dir, "ovsdb-server.log", "ovnj-ovsdb-relay-reaper");
    }

    /**
     * Starts a relay of the OVN Northbound database of {@code sourceRemotes}.
     *
     * @param sourceRemotes the source, e.g. {@code server.remote()} or {@code cluster.remotes()}
     * @return the running relay, connected to its source
     */
    public static OvsdbRelay start(String sourceRemotes) {
        return builder().source(sourceRemotes).start();
    }

    /**
     * Starts a relay of a standalone server's database.
     *
     * @param source the server
     * @return the running relay, connected to it
     */
    public static OvsdbRelay start(OvsdbServer source) {
        return builder().source(source.remote()).database(source.databaseName()).start();
    }

    /**
     * Starts a relay of a cluster's database; it follows the cluster's leader changes itself.
     *
     * @param source the cluster
     * @return the running relay, connected to a member
     */
    public static OvsdbRelay start(OvsdbCluster source) {
        return builder().source(source.remotes()).database(source.databaseName()).start();
    }

    /**
     * Returns a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The relay's client remote, e.g. {@code tcp:127.0.0.1:6641}.
     *
     * @return the remote clients connect to
     */
    public String remote() {
        return "tcp:127.0.0.1:" + port;
    }

    /**
     * The relay's TCP port.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * The source the relay follows.
     *
     * @return the source remotes as given
     */
    public String source() {
        return source;
    }

    /**
     * The relayed database's name.
     *
     * @return e.g. {@code OVN_Northbound}
     */
    public String databaseName() {
        return databaseName;
    }

    /**
     * The relay's private directory (log, control socket, pid file).
     *
     * @return the directory
     */
    public Path directory() {
        return dir;
    }

    /**
     * The relay's log so far.
     *
     * @return its log file and anything it printed
     */
    public String log() {
        return daemon.log();
    }

    /**
     * Runs {@code ovs-appctl} against the relay's control socket.
     *
     * @param args the command and its arguments, e.g. {@code "vlog/set", "jsonrpc:file:dbg"}
     * @return what it printed
     */
    public String appctl(String... args) {
        return DaemonProcess.appctl("ovs-appctl", dir.resolve("ovsdb-server.ctl"), args);
    }

    /**
     * Whether the relay process is alive.
     *
     * @return true while it runs
     */
    public boolean isRunning() {
        return daemon.isRunning();
    }

    /** Ends the relay gracefully (SIGTERM) and waits for it. */
    public synchronized void stop() {
        if (daemon.stop()) {
            LOG.info("ovsdb relay {} stopped", remote());
        }
    }

    /** Kills the relay with SIGKILL. */
    public synchronized void kill() {
        if (daemon.kill()) {
            LOG.info("ovsdb relay {} killed", remote());
        }
    }

    /** Starts the relay again on the same port (killing it first if it runs). */
    public synchronized void restart() {
        kill();
        launch();
    }

    /** Kills the relay and removes its directory. */
    @Override
    public synchronized void close() {
        kill();
        daemon.close(true);
    }

    synchronized void launch() {
        List<String> argv = new ArrayList<>(List.of("ovsdb-server", "relay:" + databaseName + ":" + source,
                "--remote=ptcp:" + port + ":127.0.0.1",
                "--unixctl=" + dir.resolve("ovsdb-server.ctl"),
                "--log-file=" + dir.resolve("ovsdb-server.log"),
                "-vconsole:off", "-vfile:info", "--no-chdir",
                "--pidfile=" + dir.resolve("ovsdb-server.pid")));
        argv.addAll(extraArgs);
        daemon.launch(argv, "");
        awaitConnected();
        LOG.info("ovsdb relay {} started (pid {}, {} from {})", remote(), daemon.pid(), databaseName, source);
    }

    /** Waits until the relay's own {@code _Server} row says it is connected to its source. */
    private void awaitConnected() {
        if (!daemon.awaitReady(START_TIMEOUT, 50, this::connectedToSource)) {
            daemon.killQuietly();
            throw new TestkitException("ovsdb relay " + remote() + " did not connect to " + source + " within " + START_TIMEOUT + ":\n" + log());
        }
    }

    private boolean connectedToSource() {
        String request = "{\"id\":0,\"method\":\"transact\",\"params\":[\"_Server\",{\"op\":\"select\",\"table\":\"Database\","
                + "\"where\":[[\"name\",\"==\",\"" + databaseName + "\"]],\"columns\":[\"connected\"]}]}";
        return DaemonProcess.jsonRpcReply(port, request, r -> r.indexOf("\"result\"") >= 0 && r.indexOf("}]") >= 0)
                .map(r -> r.contains("\"connected\":true"))
                .orElse(false);
    }

    /** Configures and starts an {@link OvsdbRelay}. */
    public static final class Builder {
        private String source;
        private String database = "OVN_Northbound";
        private final List<String> extraArgs = new ArrayList<>();

        private Builder() {
        }

        /**
         * Sets the source: one remote, or a cluster's comma-separated remotes.
         *
         * @param remotes e.g. {@code tcp:127.0.0.1:6641}
         * @return this builder
         */
        public Builder source(String remotes) {
            this.source = remotes;
            return this;
        }

        /**
         * Sets the database to relay (default {@code OVN_Northbound}).
         *
         * @param name the database name
         * @return this builder
         */
        public Builder database(String name) {
            this.database = name;
            return this;
        }

        /**
         * Adds ovsdb-server arguments, e.g. {@code -vjsonrpc:file:dbg}.
         *
         * @param args the arguments
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            extraArgs.addAll(List.of(args));
            return this;
        }

        /**
         * Starts the relay and waits until it is connected to its source.
         *
         * @return the running relay
         */
        public OvsdbRelay start() {
            if (source == null || source.isBlank()) {
                throw new IllegalArgumentException("a relay needs a source remote");
            }
            Path dir;
            try {
                dir = Files.createTempDirectory("ovnj-relay-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            OvsdbRelay relay = new OvsdbRelay(this, dir);
            try {
                relay.launch();
            } catch (RuntimeException e) {
                relay.close();
                throw e;
            }
            return relay;
        }
    }
}
