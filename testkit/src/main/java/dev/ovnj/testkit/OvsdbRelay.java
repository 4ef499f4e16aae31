package dev.ovnj.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    private final Thread shutdownHook;
    private volatile Process process;

    private OvsdbRelay(Builder b, Path dir) {
        this.dir = dir;
        this.source = b.source;
        this.databaseName = b.database;
        this.port = FreePorts.next();
        this.extraArgs = List.copyOf(b.extraArgs);
        this.shutdownHook = new Thread(this::killQuietly, "ovnj-ovsdb-relay-reaper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
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
        StringBuilder sb = new StringBuilder();
        for (String f : List.of("ovsdb-server.log", "stderr.log")) {
            Path p = dir.resolve(f);
            if (Files.exists(p)) {
                try {
                    sb.append(Files.readString(p, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    sb.append("(cannot read ").append(p).append(")\n");
                }
            }
        }
        return sb.toString();
    }

    /**
     * Runs {@code ovs-appctl} against the relay's control socket.
     *
     * @param args the command and its arguments, e.g. {@code "vlog/set", "jsonrpc:file:dbg"}
     * @return what it printed
     */
    public String appctl(String... args) {
        List<String> argv = new ArrayList<>(List.of("ovs-appctl", "-t", dir.resolve("ovsdb-server.ctl").toString()));
        argv.addAll(List.of(args));
        return Command.of(argv).timeout(Duration.ofSeconds(20)).check();
    }

    /**
     * Whether the relay process is alive.
     *
     * @return true while it runs
     */
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Ends the relay gracefully (SIGTERM) and waits for it. */
    public synchronized void stop() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        LOG.info("ovsdb relay {} stopped", remote());
    }

    /** Kills the relay with SIGKILL. */
    public synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        LOG.info("ovsdb relay {} killed", remote());
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
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to.
        }
        OvsdbServer.deleteTree(dir);
    }

    synchronized void launch() {
        List<String> argv = new ArrayList<>(List.of("ovsdb-server", "relay:" + databaseName + ":" + source,
                "--remote=ptcp:" + port + ":127.0.0.1",
                "--unixctl=" + dir.resolve("ovsdb-server.ctl"),
                "--log-file=" + dir.resolve("ovsdb-server.log"),
                "-vconsole:off", "-vfile:info", "--no-chdir",
                "--pidfile=" + dir.resolve("ovsdb-server.pid")));
        argv.addAll(extraArgs);
        try {
            process = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new TestkitException("cannot start ovsdb-server: " + e.getMessage(), e);
        }
        awaitConnected();
        LOG.info("ovsdb relay {} started (pid {}, {} from {})", remote(), process.pid(), databaseName, source);
    }

    /** Waits until the relay's own {@code _Server} row says it is connected to its source. */
    private void awaitConnected() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new TestkitException("ovsdb relay exited with " + process.exitValue() + " while starting:\n" + log());
            }
            if (connectedToSource()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestkitException("interrupted", e);
            }
        }
        killQuietly();
        throw new TestkitException("ovsdb relay " + remote() + " did not connect to " + source + " within " + START_TIMEOUT + ":\n" + log());
    }

    private boolean connectedToSource() {
        String request = "{\"id\":0,\"method\":\"transact\",\"params\":[\"_Server\",{\"op\":\"select\",\"table\":\"Database\","
                + "\"where\":[[\"name\",\"==\",\"" + databaseName + "\"]],\"columns\":[\"connected\"]}]}";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            StringBuilder reply = new StringBuilder();
            int n;
            while ((n = in.read(buf)) > 0) {
                reply.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (reply.indexOf("\"result\"") >= 0 && reply.indexOf("}]") >= 0) {
                    return reply.indexOf("\"connected\":true") >= 0;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private void killQuietly() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
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
