package dev.ovnj.testkit;

import java.io.File;
import java.io.IOException;
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
 * A real {@code ovn-northd} process translating a Northbound database into a Southbound one, with
 * its log and control socket in a private directory. No {@code ovn-controller} runs next to it:
 * tests fake chassis and bindings with {@link Sbctl} ({@code chassis-add}, {@code lsp-bind}).
 *
 * <pre>{@code
 * try (OvsdbServer nb = OvsdbServer.start();
 *      OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
 *      Northd northd = Northd.start(nb, sb)) {
 *     Nbctl.of(nb).run("--wait=sb", "sync");
 * }
 * }</pre>
 */
public final class Northd implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Northd.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path dir;
    private final Process process;
    private final Thread shutdownHook;

    private Northd(Path dir, Process process) {
        this.dir = dir;
        this.process = process;
        this.shutdownHook = new Thread(process::destroyForcibly, "ovnj-northd-reaper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts ovn-northd between two running servers and waits until it is active.
     *
     * @param northbound the OVN_Northbound server
     * @param southbound the OVN_Southbound server
     * @return the running northd
     */
    public static Northd start(OvsdbServer northbound, OvsdbServer southbound) {
        return start(northbound.remote(), southbound.remote());
    }

    /**
     * Starts ovn-northd between two remotes and waits until it is active.
     *
     * @param northboundRemote e.g. {@code tcp:127.0.0.1:6641}
     * @param southboundRemote e.g. {@code tcp:127.0.0.1:6642}
     * @return the running northd
     */
    public static Northd start(String northboundRemote, String southboundRemote) {
        Path dir;
        Process p;
        try {
            dir = Files.createTempDirectory("ovnj-northd-");
            p = new ProcessBuilder(List.of("ovn-northd", "--ovnnb-db=" + northboundRemote, "--ovnsb-db=" + southboundRemote,
                    "--unixctl=" + dir.resolve("northd.ctl"), "--log-file=" + dir.resolve("northd.log"),
                    "-vconsole:off", "-vfile:info", "--no-chdir"))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new TestkitException("cannot start ovn-northd: " + e.getMessage()
                    + " (the ovn-central package installs it)", e);
        }
        Northd northd = new Northd(dir, p);
        try {
            northd.awaitActive();
        } catch (RuntimeException e) {
            northd.close();
            throw e;
        }
        LOG.info("ovn-northd started (pid {}) between {} and {}", p.pid(), northboundRemote, southboundRemote);
        return northd;
    }

    private void awaitActive() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new TestkitException("ovn-northd exited with " + process.exitValue() + " while starting:\n" + log());
            }
            if (Files.exists(controlSocket())) {
                Command.Result r = Command.of("ovn-appctl", "-t", controlSocket().toString(), "status")
                        .timeout(Duration.ofSeconds(5)).run();
                if (r.ok() && r.stdout().contains("active")) {
                    return;
                }
            }
            sleep(50);
        }
        throw new TestkitException("ovn-northd did not become active within " + START_TIMEOUT + ":\n" + log());
    }

    /**
     * The path of northd's control socket, for {@code ovn-appctl -t}.
     *
     * @return the control socket
     */
    public Path controlSocket() {
        return dir.resolve("northd.ctl");
    }

    /**
     * Runs {@code ovn-appctl} against this northd.
     *
     * @param args the command and its arguments, e.g. {@code "status"}
     * @return what it printed
     */
    public String appctl(String... args) {
        List<String> argv = new ArrayList<>(List.of("ovn-appctl", "-t", controlSocket().toString()));
        argv.addAll(List.of(args));
        return Command.of(argv).timeout(Duration.ofSeconds(20)).check();
    }

    /**
     * Stops translating ({@code ovn-appctl pause}): the Southbound database then keeps what it
     * has while the Northbound one changes, as with a stuck or standby northd.
     */
    public void pause() {
        appctl("pause");
    }

    /** Resumes translating after {@link #pause()}. */
    public void resume() {
        appctl("resume");
    }

    /**
     * Northd's log so far.
     *
     * @return the log text
     */
    public String log() {
        StringBuilder sb = new StringBuilder();
        for (String f : List.of("northd.log", "stderr.log")) {
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

    /** Kills northd and removes its directory. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to; nothing left to unregister.
        }
        OvsdbServer.deleteTree(dir);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted", e);
        }
    }
}
