package dev.ovnj.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code ovn-sbctl} against a Southbound database: how tests play {@code ovn-controller}
 * (fake a chassis with {@code chassis-add}, bind ports with {@code lsp-bind}) and inspect what
 * {@code ovn-northd} wrote.
 */
public final class Sbctl {
    private final String db;

    private Sbctl(String db) {
        this.db = db;
    }

    /**
     * An ovn-sbctl for a remote.
     *
     * @param db the {@code --db} value
     * @return the runner
     */
    public static Sbctl of(String db) {
        return new Sbctl(db);
    }

    /**
     * An ovn-sbctl for a server's TCP remote.
     *
     * @param server the server
     * @return the runner
     */
    public static Sbctl of(OvsdbServer server) {
        return of(server.remote());
    }

    /**
     * Adds a chassis as a starting {@code ovn-controller} does: its {@code Chassis} row
     * ({@code chassis-add}) and its {@code Chassis_Private} row, whose presence says the chassis'
     * ovn-controller is there ({@code chassis-add} alone makes only the first).
     *
     * @param name the chassis name, e.g. {@code hv1}
     * @param ip its tunnel endpoint, e.g. {@code 127.0.0.1}
     */
    public void addChassis(String name, String ip) {
        run("chassis-add", name, "geneve", ip);
        run("--id=@c", "get", "chassis", name, "--", "create", "chassis_private", "name=" + name, "chassis=@c");
    }

    /**
     * Runs one ovn-sbctl command line.
     *
     * @param args the command and its arguments, e.g. {@code "chassis-add", "gw1", "geneve", "127.0.0.1"}
     * @return stdout, trimmed of its final newline
     * @throws TestkitException with stderr when ovn-sbctl fails
     */
    public String run(String... args) {
        List<String> argv = new ArrayList<>(List.of("ovn-sbctl", "--db=" + db, "--timeout=20"));
        argv.addAll(List.of(args));
        Command.Result r = Command.of(argv).timeout(Duration.ofSeconds(30)).run();
        if (!r.ok()) {
            throw new TestkitException("ovn-sbctl " + String.join(" ", args) + " exited " + r.exitCode() + ": " + r.stderr().trim());
        }
        String out = r.stdout();
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }
}
