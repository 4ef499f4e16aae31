package dev.ovnj.cli;

import dev.ovnj.testkit.inmemory.InMemoryOvsdbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the in-memory OVSDB server until stopped, so tools such as {@code ovn-nbctl} and the OVS
 * Python IDL can be pointed at it without ovsdb-server installed.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run an in-memory OVSDB server (OVN Northbound by default) until interrupted.")
final class ServeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--remote", required = true, description = "Where to listen: ptcp:PORT[:IP] or punix:PATH (repeatable; one ptcp: is required).")
    private List<String> remotes;

    @Option(names = "--schema", description = "Schema file of the database to serve (repeatable; default: the bundled OVN_Northbound schema).")
    private List<Path> schemas = List.of();

    @Option(names = "--no-history", description = "Keep no transaction history: monitor_cond_since answers as a standalone ovsdb-server does.")
    private boolean noHistory;

    @Override
    public Integer call() throws InterruptedException {
        InMemoryOvsdbServer.Builder builder = InMemoryOvsdbServer.builder().history(!noHistory);
        schemas.forEach(builder::schema);
        boolean tcp = false;
        for (String remote : remotes) {
            if (remote.startsWith("ptcp:")) {
                String[] parts = remote.substring(5).split(":", 2);
                try {
                    builder.tcp(parts.length > 1 ? parts[1] : "0.0.0.0", Integer.parseInt(parts[0]));
                } catch (NumberFormatException e) {
                    throw new ParameterException(spec.commandLine(), "--remote " + remote + ": PORT is not a number");
                }
                tcp = true;
            } else if (remote.startsWith("punix:")) {
                builder.unixSocket(Path.of(remote.substring(6)));
            } else {
                throw new ParameterException(spec.commandLine(), "--remote " + remote + ": expected ptcp:PORT[:IP] or punix:PATH");
            }
        }
        if (!tcp) {
            throw new ParameterException(spec.commandLine(), "--remote ptcp:PORT[:IP] is required");
        }
        try (ShutdownSignal signal = ShutdownSignal.install(); InMemoryOvsdbServer server = builder.start()) {
            System.out.println("serving " + String.join(", ", server.databaseNames()) + " on " + server.remote()
                    + server.unixRemote().map(u -> " and " + u).orElse("") + "; Ctrl-C stops");
            System.out.flush();
            while (!signal.await(Duration.ofHours(1))) {
                // Serve until a signal asks to stop.
            }
        }
        return 0;
    }
}
