package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scripts/test-ovsdb}: OVS's {@code tests/test-ovsdb.py} for its {@code idl} command,
 * driving ovnj's {@code OvsdbClient} and its cache instead of the Python IDL. Options: {@code -t N}
 * / {@code -tN} / {@code --timeout=N} (give up after N seconds, as the .at files pass {@code -t10});
 * OVS's logging options ({@code -v...}) are accepted and ignored.
 */
public final class TestOvsdb {
    private TestOvsdb() {
    }

    /**
     * Runs the command and exits with its status.
     *
     * @param args as for test-ovsdb.py
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
        int status = run(args, out, err);
        out.flush();
        Runtime.getRuntime().halt(status);
    }

    static int run(String[] argv, PrintStream out, PrintStream err) {
        List<String> args = new ArrayList<>(List.of(argv));
        Duration timeout = Duration.ofSeconds(60);
        while (!args.isEmpty() && args.get(0).startsWith("-")) {
            String opt = args.remove(0);
            if (opt.equals("-t") || opt.equals("--timeout")) {
                timeout = Duration.ofSeconds(Long.parseLong(args.remove(0)));
            } else if (opt.startsWith("-t")) {
                timeout = Duration.ofSeconds(Long.parseLong(opt.substring(2)));
            } else if (opt.startsWith("--timeout=")) {
                timeout = Duration.ofSeconds(Long.parseLong(opt.substring("--timeout=".length())));
            } else if (!opt.startsWith("-v")) {
                err.println("test-ovsdb: unknown option " + opt);
                return 1;
            }
        }
        boolean idl = args.size() >= 3 && args.get(0).equals("idl");
        boolean partial = args.size() == 2 && PartialUpdateRun.commands().contains(args.get(0));
        if (!idl && !partial) {
            err.println("usage: test-ovsdb [-t SECONDS] idl SCHEMA REMOTE [STEP...]\n"
                    + "       test-ovsdb [-t SECONDS] idl-partial-update-map-column|idl-partial-update-set-column REMOTE");
            return 1;
        }
        watchdog(timeout, err);
        try {
            if (partial) {
                // The C driver's commands take no schema: the C IDL has idltest's compiled in.
                PartialUpdateRun p = new PartialUpdateRun(idltest(), args.get(1), timeout, out);
                if (args.get(0).endsWith("map-column")) {
                    p.mapColumn();
                } else {
                    p.setColumn();
                }
                return 0;
            }
            DatabaseSchema schema = DatabaseSchema.parse(Path.of(args.get(1)));
            new IdlRun(schema, args.get(2), timeout, out, err).run(args.subList(3, args.size()));
            return 0;
        } catch (IdlRun.Failure e) {
            out.flush();
            err.println(e.getMessage());
            return 1;
        } catch (Exception e) {
            out.flush();
            err.println("test-ovsdb: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** OVS's idltest schema, the one the C driver is built for. */
    private static DatabaseSchema idltest() throws java.io.IOException {
        try (java.io.InputStream in = TestOvsdb.class.getClassLoader().getResourceAsStream("ovs-tests-v3.1.0/idltest.ovsschema")) {
            return DatabaseSchema.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** {@code -t}: the whole run ends after the timeout, as test-ovsdb.py's alarm ends it. */
    private static void watchdog(Duration timeout, PrintStream err) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(timeout.toMillis());
                err.println("test-ovsdb: timeout after " + timeout.toSeconds() + " seconds");
                Runtime.getRuntime().halt(142);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-ovsdb-timeout");
        t.setDaemon(true);
        t.start();
    }
}
