package dev.ovnj.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    private final DaemonProcess daemon;

    private Northd(Path dir) {
        this.dir = dir;
        this.daemon = new DaemonProcess("ovn-northd", dir, "northd.log", "ovnj-northd-reaper");
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
        try {
            dir = Files.createTempDirectory("ovnj-northd-");
        } catch (IOException e) {
            throw new TestkitException("cannot start ovn-northd: " + e.getMessage()
                    + " (the ovn-central package installs it)", e);
        }
        Northd northd = new Northd(dir);
        try {
            northd.daemon.launch(List.of("ovn-northd", "--ovnnb-db=" + northboundRemote, "--ovnsb-db=" + southboundRemote,
                    "--unixctl=" + dir.resolve("northd.ctl"), "--log-file=" + dir.resolve("northd.log"),
                    "-vconsole:off", "-vfile:info", "--no-chdir"), " (the ovn-central package installs it)");
            northd.awaitActive();
        } catch (RuntimeException e) {
            northd.close();
            throw e;
        }
        LOG.info("ovn-northd started (pid {}) between {} and {}", northd.daemon.pid(), northboundRemote, southboundRemote);
        return northd;
    }

    private void awaitActive() {
        boolean active = daemon.awaitReady(START_TIMEOUT, 50, () -> Files.exists(controlSocket())
                && activeStatus(Command.of("ovn-appctl", "-t", controlSocket().toString(), "status")
                        .timeout(Duration.ofSeconds(5)).run()));
        if (!active) {
            throw new TestkitException("ovn-northd did not become active within " + START_TIMEOUT + ":\n" + log());
        }
    }

    private static boolean activeStatus(Command.Result r) {
        return r.ok() && r.stdout().contains("active");
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
        return DaemonProcess.appctl("ovn-appctl", controlSocket(), args);
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
        return daemon.log();
    }

    /** Kills northd and removes its directory. */
    @Override
    public void close() {
        daemon.kill();
        daemon.close(true);
    }
}
