package dev.ovnj.cli;

import dev.ovnj.nb.command.NbctlCommandLine;
import dev.ovnj.nb.command.NbctlException;
import dev.ovnj.ovsdb.client.NotConnectedException;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import java.nio.file.Path;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code ovnj nbctl [--db REMOTES] COMMAND [ARG...] [-- COMMAND ...]}: ovn-nbctl's command
 * language through {@link NbctlCommandLine}, one transaction per invocation, with ovn-nbctl's output,
 * {@code ovn-nbctl: ...} messages and exit codes (0, or 1 when a command or the transaction
 * failed), so scripts written for ovn-nbctl run unchanged. The arguments bypass picocli: ovn-nbctl's
 * syntax puts command options ({@code --may-exist}) among the global ones.
 */
final class NbctlCommand {
    // ovn-nbctl waits forever without --timeout; every wait here has a bound.
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private NbctlCommand() {
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        NbctlCommandLine.Invocation invocation;
        try {
            invocation = NbctlCommandLine.parse(args);
        } catch (NbctlException e) {
            err.println("ovn-nbctl: " + e.getMessage());
            return 1;
        }
        String db = invocation.db() != null ? invocation.db()
                : env.getOrDefault("OVN_NB_DB", "unix:/var/run/ovn/ovnnb_db.sock");
        Duration timeout = invocation.timeout().isZero() ? DEFAULT_TIMEOUT : invocation.timeout();
        OvsdbClient client;
        try {
            OvsdbClient.Builder b = OvsdbClient.builder().remotes(db).database("OVN_Northbound").requestTimeout(timeout)
                    .backoff(Duration.ofMillis(100), Duration.ofSeconds(1));
            Map<String, String> tls = invocation.tls();
            if (tls.size() == 3) {
                b.tls(new TlsConfig(Path.of(tls.get("--private-key")), Path.of(tls.get("--certificate")),
                        Path.of(tls.get("--ca-cert"))));
            } else if (db.contains("ssl:")) {
                err.println("ovn-nbctl: " + db + ": ssl: remotes need --private-key, --certificate and --ca-cert");
                return 1;
            }
            client = b.build();
        } catch (IllegalArgumentException e) {
            err.println("ovn-nbctl: " + db + ": " + e.getMessage());
            return 1;
        }
        try (client) {
            try {
                client.startAndWait(timeout);
            } catch (NotConnectedException e) {
                err.println("ovn-nbctl: " + db + ": database connection failed (timeout after " + timeout.toSeconds()
                        + " seconds)");
                return 1;
            }
            NbctlCommandLine.Result result = NbctlCommandLine.run(client, invocation, timeout);
            out.print(result.stdout());
            out.flush();
            err.print(result.stderr());
            err.flush();
            return result.exitCode();
        }
    }
}
