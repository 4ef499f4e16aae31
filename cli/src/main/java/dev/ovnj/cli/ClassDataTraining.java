package dev.ovnj.cli;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.inmemory.InMemoryOvsdbServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * Not for users (hidden): what the {@code ./ovnj} launcher runs under
 * {@code -XX:DumpLoadedClassList} to learn which classes the database commands load, so that its
 * class-data archive holds them (Netty, Jackson, the client, the model, the engine) and a
 * {@code status} or {@code reconcile} maps them instead of loading and verifying them from the jar
 * (docs/benchmarks.md, cli-status). It runs {@code reconcile}, {@code status}, {@code diff} and
 * {@code doctor} against an in-memory Northbound database of this JVM, printing nothing; exit 0
 * when each of them ran to its end, 2 when one could not.
 */
@Command(name = "class-data-training", hidden = true,
        description = "Run the database commands once against an in-memory database (for the launcher's class-data archive).")
final class ClassDataTraining implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String STATE = """
            owner: training
            loadBalancers:
              - name: web
                routers: [r1]
                switches: [s1]
                vips:
                  - vip: 172.16.0.100:80
                    backends: [10.0.0.2:80, 10.0.0.3:80]
            """;

    @Override
    public Integer call() throws IOException {
        Path state = Files.createTempFile("ovnj-training", ".yaml");
        PrintStream out = System.out;
        PrintStream err = System.err;
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start()) {
            Files.writeString(state, STATE);
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT)) {
                client.transactAndWait(client.transaction()
                        .add(Operations.insert("Logical_Router").value("name", "r1"))
                        .add(Operations.insert("Logical_Switch").value("name", "s1"))
                        .build(), WAIT);
            }
            PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
            System.setOut(nowhere);
            System.setErr(nowhere);
            String db = server.remote();
            String file = state.toString();
            // Exit 1 (problems found: the training database has no gateway) still ran the whole command.
            int worst = 0;
            for (List<String> args : List.of(List.of("reconcile", "--db", db, "-f", file), List.of("status", "--db", db),
                    List.of("status", "--db", db, "-o", "json"), List.of("diff", "--db", db, "-f", file),
                    List.of("doctor", "--db", db))) {
                worst = Math.max(worst, Main.run(args.toArray(String[]::new)));
            }
            return worst < Main.TROUBLE ? 0 : Main.TROUBLE;
        } finally {
            System.setOut(out);
            System.setErr(err);
            Files.deleteIfExists(state);
        }
    }
}
