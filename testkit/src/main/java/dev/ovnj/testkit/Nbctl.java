package dev.ovnj.testkit;

import dev.ovnj.testkit.tls.TestCertificates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code ovn-nbctl} against a database: the independent client that tests use to cross-check
 * what ovnj writes, and to change the database behind ovnj's back.
 */
public final class Nbctl {
    private final String db;
    private final TestCertificates tls;
    private final boolean leaderOnly;

    private Nbctl(String db, TestCertificates tls, boolean leaderOnly) {
        this.db = db;
        this.tls = tls;
        this.leaderOnly = leaderOnly;
    }

    /**
     * An ovn-nbctl for a remote (or comma-separated cluster remotes).
     *
     * @param db the {@code --db} value
     * @return the runner
     */
    public static Nbctl of(String db) {
        return new Nbctl(db, null, true);
    }

    /**
     * An ovn-nbctl for a server's TCP remote.
     *
     * @param server the server
     * @return the runner
     */
    public static Nbctl of(OvsdbServer server) {
        return of(server.remote());
    }

    /**
     * An ovn-nbctl for all members of a cluster (leader only, as ovn-nbctl defaults to).
     *
     * @param cluster the cluster
     * @return the runner
     */
    public static Nbctl of(OvsdbCluster cluster) {
        return of(cluster.remotes());
    }

    /**
     * Returns a copy that connects with TLS using the client certificate of {@code certs}.
     *
     * @param certs CA and client key/certificate
     * @return the new runner
     */
    public Nbctl withTls(TestCertificates certs) {
        return new Nbctl(db, certs, leaderOnly);
    }

    /**
     * Returns a copy that passes {@code --no-leader-only}, so any cluster member serves it.
     *
     * @return the new runner
     */
    public Nbctl anyMember() {
        return new Nbctl(db, tls, false);
    }

    /**
     * Runs one ovn-nbctl command line.
     *
     * @param args the command and its arguments, e.g. {@code "lb-add", "lb0", "10.0.0.10:80", "10.0.0.2:80"}
     * @return stdout, trimmed of its final newline
     * @throws NbctlException with stderr when ovn-nbctl fails
     */
    public String run(String... args) {
        List<String> argv = new ArrayList<>(List.of("ovn-nbctl", "--db=" + db, "--timeout=20"));
        if (!leaderOnly) {
            argv.add("--no-leader-only");
        }
        if (tls != null) {
            argv.add("--private-key=" + tls.clientKey());
            argv.add("--certificate=" + tls.clientCert());
            argv.add("--ca-cert=" + tls.caCert());
        }
        argv.addAll(List.of(args));
        Command.Result r = Command.of(argv).timeout(Duration.ofSeconds(30)).run();
        if (!r.ok()) {
            throw new NbctlException(String.join(" ", args), r.exitCode(), r.stderr().trim());
        }
        String out = r.stdout();
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }
}
