package dev.ovnj.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * One OVS/OVN daemon process ({@code ovsdb-server}, a relay, {@code ovn-northd}) with its log file
 * and {@code stderr.log} in a private directory: launch, readiness polling, signals, stop, kill and
 * cleanup. The owning testkit class builds the command line, decides what "ready" means and logs
 * state changes; a JVM shutdown hook, registered here, kills the process if the test forgets.
 */
final class DaemonProcess {
    private final String name;
    private final Path dir;
    private final String logFile;
    private final Thread shutdownHook;
    private volatile Process process;
    private volatile boolean paused;

    /**
     * Registers the shutdown hook; {@link #launch} starts the process.
     *
     * @param name what error messages call the daemon, e.g. {@code ovsdb relay}
     * @param dir its private directory
     * @param logFile the name of its {@code --log-file} inside {@code dir}
     * @param reaperName the name of the shutdown-hook thread
     */
    DaemonProcess(String name, Path dir, String logFile, String reaperName) {
        this.name = name;
        this.dir = dir;
        this.logFile = logFile;
        this.shutdownHook = new Thread(this::killQuietly, reaperName);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code argv} (its OVS/OVN program from the {@link OvnRelease#current() current release})
     * with stdin from {@code /dev/null} and stdout and stderr appended to {@code stderr.log}.
     *
     * @param argv the command line
     * @param installHint appended to the error when the program cannot be started
     */
    synchronized void launch(List<String> argv, String installHint) {
        try {
            process = new ProcessBuilder(OvnRelease.current().resolve(argv))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new TestkitException("cannot start " + argv.get(0) + ": " + e.getMessage() + installHint, e);
        }
    }

    /**
     * Polls {@code ready} until it holds. A process that exits first fails with its log, so a bad
     * argument or a taken port is reported, not waited out.
     *
     * @param timeout how long to wait
     * @param pollMillis the pause between polls
     * @param ready the readiness check
     * @return true once ready, false when the timeout passed first
     */
    boolean awaitReady(Duration timeout, long pollMillis, BooleanSupplier ready) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Process p = process;
            if (!p.isAlive()) {
                throw new TestkitException(name + " exited with " + p.exitValue() + " while starting:\n" + log());
            }
            if (ready.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(pollMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestkitException("interrupted", e);
            }
        }
        return false;
    }

    /**
     * The process id.
     *
     * @return the pid
     * @throws TestkitException when the process is not running
     */
    long pid() {
        Process p = process;
        if (p == null) {
            throw new TestkitException(name + " is not running");
        }
        return p.pid();
    }

    /**
     * Whether the process is alive (also when paused).
     *
     * @return true while it runs
     */
    boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * How the process ended, for a report of its death: {@code exit status N}, or the signal
     * that killed it.
     *
     * @return the description, empty while it runs or after {@link #stop()} and {@link #kill()}
     */
    Optional<String> exitDescription() {
        Process p = process;
        if (p == null || p.isAlive()) {
            return Optional.empty();
        }
        int code = p.exitValue();
        return Optional.of(code > 128 ? "killed by signal " + (code - 128) : "exit status " + code);
    }

    /**
     * The daemon's log file followed by anything it printed.
     *
     * @return the log text
     */
    String log() {
        StringBuilder sb = new StringBuilder();
        for (String f : List.of(logFile, "stderr.log")) {
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
     * Ends the process with SIGTERM (thawing it first if paused), escalating to SIGKILL after 10 s.
     *
     * @return false when it was not running
     */
    synchronized boolean stop() {
        Process p = process;
        if (p == null) {
            return false;
        }
        if (paused) {
            resume();
        }
        p.destroy();
        awaitExit(p);
        process = null;
        return true;
    }

    /**
     * Kills the process with SIGKILL, as a crash would.
     *
     * @return false when it was not running
     */
    synchronized boolean kill() {
        Process p = process;
        if (p == null) {
            return false;
        }
        p.destroyForcibly();
        awaitExit(p);
        process = null;
        paused = false;
        return true;
    }

    /** Freezes the process with SIGSTOP. */
    synchronized void pause() {
        signal("STOP");
        paused = true;
    }

    /** Thaws the process with SIGCONT. */
    synchronized void resume() {
        signal("CONT");
        paused = false;
    }

    /** Kills the process without waiting, e.g. from the shutdown hook or after a failed start. */
    void killQuietly() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
    }

    /**
     * Unregisters the shutdown hook and optionally removes the directory; the process must already
     * be ended.
     *
     * @param deleteDirectory whether to remove the directory
     */
    void close(boolean deleteDirectory) {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to; nothing left to unregister.
        }
        if (deleteDirectory) {
            OvsdbServer.deleteTree(dir);
        }
    }

    /**
     * Runs an appctl tool against a control socket.
     *
     * @param tool {@code ovs-appctl} or {@code ovn-appctl}
     * @param controlSocket the daemon's {@code --unixctl} socket
     * @param args the command and its arguments
     * @return what it printed
     */
    static String appctl(String tool, Path controlSocket, String... args) {
        List<String> argv = new ArrayList<>(List.of(tool, "-t", controlSocket.toString()));
        argv.addAll(List.of(args));
        return Command.of(argv).timeout(Duration.ofSeconds(20)).check();
    }

    /**
     * Sends one JSON-RPC request to 127.0.0.1:{@code port} on a fresh connection and reads until
     * {@code complete} accepts the reply, for readiness checks that must not depend on the client
     * under test.
     *
     * @param port the TCP port
     * @param request the request text
     * @param complete whether the reply read so far is whole
     * @return the reply, or empty when the connection failed, timed out or closed first
     */
    static Optional<String> jsonRpcReply(int port, String request, Predicate<StringBuilder> complete) {
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
                if (complete.test(reply)) {
                    return Optional.of(reply.toString());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private void signal(String sig) {
        Command.of("kill", "-" + sig, Long.toString(pid())).check();
    }

    private static void awaitExit(Process p) {
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
