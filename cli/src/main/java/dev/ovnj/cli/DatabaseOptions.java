package dev.ovnj.cli;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.NotConnectedException;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How to reach the databases: {@code --db}, the TLS files, {@code --timeout} and {@code --verbose},
 * one definition for every command that talks to a database (with {@link SouthboundOption},
 * {@link OwnerOption}, {@link DesiredStateFile} and {@link OutputOption} the shared options of
 * {@code ovnj}).
 */
final class DatabaseOptions {

    @Option(names = "--db", required = true, paramLabel = "REMOTES",
            description = "OVSDB remotes, comma-separated for a cluster (its leader is used) or relays (ovsdb-server relay:), "
                    + "tried in order: tcp:IP:PORT, ssl:IP:PORT, unix:PATH.")
    private String remotes;

    @Option(names = {"-p", "--private-key"}, paramLabel = "FILE", description = "Private key (PEM) for ssl: remotes.")
    private Path privateKey;

    @Option(names = {"-c", "--certificate"}, paramLabel = "FILE", description = "Certificate (PEM) for ssl: remotes.")
    private Path certificate;

    @Option(names = {"-C", "--ca-cert"}, paramLabel = "FILE", description = "CA certificate (PEM) for ssl: remotes.")
    private Path caCert;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Give up when the database cannot be reached (or does not accept changes) within this time (default: ${DEFAULT-VALUE}).")
    private double timeoutSeconds;

    @Mixin
    private VerboseOption verbose;

    /** How long to wait for the database. */
    Duration timeout() {
        return Duration.ofMillis((long) (timeoutSeconds * 1000));
    }

    /** The remotes as given. */
    String remotes() {
        return remotes;
    }

    /**
     * Connects a client that replicates what the engine needs, and waits for its first sync.
     *
     * @return the synced client
     * @throws CliFailure when the options are inconsistent or the database is not reachable in time
     */
    OvsdbClient connect() {
        return connect(remotes, "OVN_Northbound", LoadBalancerEngine.monitorRequest(), "--db");
    }

    /**
     * Connects a client of any database on the given remotes with this TLS material and timeout,
     * and waits for its first sync.
     *
     * @param remotesValue the remotes, comma-separated
     * @param database the database name, e.g. {@code OVN_Southbound}
     * @param monitor what to replicate
     * @param option the option that named the remotes, for messages
     * @return the synced client
     * @throws CliFailure when the options are inconsistent or the database is not reachable in time
     */
    OvsdbClient connect(String remotesValue, String database, MonitorRequest monitor, String option) {
        // A longer --timeout also bounds each request: the first sync of a large Southbound is one
        // monitor request that ovsdb-server may take longer than the client's default to answer.
        // A shorter --timeout leaves the client's default.
        Duration request = timeout().compareTo(OvsdbClient.Builder.DEFAULT_REQUEST_TIMEOUT) > 0
                ? timeout() : OvsdbClient.Builder.DEFAULT_REQUEST_TIMEOUT;
        OvsdbClient.Builder b = OvsdbClient.builder().database(database).monitor(monitor)
                .backoff(Duration.ofMillis(100), Duration.ofSeconds(2)).requestTimeout(request);
        try {
            b.remotes(remotesValue);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(option + ": " + e.getMessage(), e);
        }
        if (privateKey != null || certificate != null || caCert != null) {
            if (privateKey == null || certificate == null || caCert == null) {
                throw new CliFailure("ssl: remotes need all of --private-key, --certificate and --ca-cert");
            }
            b.tls(new TlsConfig(privateKey, certificate, caCert));
        } else if (remotesValue.contains("ssl:")) {
            throw new CliFailure(option + " " + remotesValue + ": ssl: remotes need --private-key, --certificate and --ca-cert");
        }
        OvsdbClient client;
        try {
            client = b.build();
        } catch (IllegalArgumentException e) {
            throw new CliFailure(option + ": " + e.getMessage(), e);
        }
        AtomicReference<Throwable> lastError = new AtomicReference<>();
        client.addConnectionListener(event -> {
            if (event.kind() == ConnectionEvent.Kind.DISCONNECTED) {
                event.cause().ifPresent(lastError::set);
            }
        });
        try {
            return client.startAndWait(timeout());
        } catch (NotConnectedException e) {
            client.close();
            Throwable cause = lastError.get();
            throw new CliFailure("cannot reach the " + database.replace('_', ' ') + " database at " + remotesValue + " within "
                    + seconds(timeout()) + (cause == null ? "" : " (last error: " + describe(cause) + ")"), e);
        }
    }

    /**
     * The TLS material, when given: private key, certificate, CA certificate.
     *
     * @return the three files, or empty
     */
    Optional<List<Path>> tlsFiles() {
        return privateKey == null || certificate == null || caCert == null ? Optional.empty()
                : Optional.of(List.of(privateKey, certificate, caCert));
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    static String seconds(Duration d) {
        double s = d.toMillis() / 1000.0;
        return (s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s)) + " s";
    }
}
